import Foundation
import LabKit
import Mandelbrot

/// Renders one viewport into a bitmap of its own. Thread-safety strategy per property:
/// `viewport`, `renderer` and `handOver` never change; `bitmap` is written in `main()` and read
/// on the main thread only after `main()` handed the operation over (serial confinement).
final class MandelbrotRenderOperation: Operation, @unchecked Sendable {
    private let viewport: MandelbrotViewport
    private let renderer: MandelbrotRenderer
    private let handOver: (MandelbrotRenderOperation) -> Void
    private(set) var bitmap: MandelbrotBitmap?

    init(viewport: MandelbrotViewport, renderer: MandelbrotRenderer,
         handOver: @escaping (MandelbrotRenderOperation) -> Void) {
        self.viewport = viewport
        self.renderer = renderer
        self.handOver = handOver
    }

    override func main() {
        if isCancelled { return }
        var picture = MandelbrotBitmap()  // FIX: the operation renders into a buffer nobody else can see.
        renderer.render(viewport, into: &picture)
        if isCancelled { return }
        bitmap = picture
        // FIX: the finished picture is handed over on the main thread. Posting it from main()
        // (not from a completion block) keeps the hand-overs in the queue's order.
        OperationQueue.main.addOperation { self.handOver(self) }
    }
}

/// The NSOperation version: each render is an operation that owns its bitmap; the view only
/// swaps in a finished picture, on the main thread.
final class MandelbrotFixed: MandelbrotController {
    private let screen: MandelbrotScreen
    private let renderer: MandelbrotRenderer
    private var bitmap: MandelbrotBitmap?  // main thread only
    private let queue = OperationQueue()

    init(environment: MandelbrotEnvironment) {
        screen = environment.screen
        renderer = environment.renderer
        queue.name = "mandelbrot.render"
        queue.maxConcurrentOperationCount = 1  // FIX: one render at a time, finished in the order asked.
    }

    deinit {
        queue.cancelAllOperations()  // FIX: the view is going away: renders still queued never start.
    }

    func show(_ viewport: MandelbrotViewport) {
        // The operation holds the view weakly: it must not keep a view alive that went away.
        let operation = MandelbrotRenderOperation(viewport: viewport, renderer: renderer) { [weak self] finished in
            self?.renderFinished(finished)
        }
        queue.addOperation(operation)
    }

    private func renderFinished(_ operation: MandelbrotRenderOperation) {
        guard let picture = operation.bitmap else { return }
        bitmap = picture  // FIX: swapped in whole, on the main thread.
        screen.setNeedsDisplay()
    }

    func draw() {
        screen.draw(bitmap)  // main thread: reads only the view's own, complete picture
    }
}

extension MandelbrotLab {
    public static var solutions: [LabVariant<MandelbrotEnvironment, MandelbrotController>] {
        [
            LabVariant(.fixed) { MandelbrotFixed(environment: $0) },
            LabVariant(.fixed, name: "fixed-gcd") { MandelbrotFixedGCD(environment: $0) },
        ]
    }
}
