import Dispatch
import LabKit
import WrongQueue

/// The canvas, kept where only its render queue can reach it: the one way in is a block that runs
/// there, after everything queued before it. The controller holds this, never the canvas itself.
private struct WrongQueueOnRenderQueue: Sendable {
    private let canvas: WrongQueueCanvas
    private let queue: DispatchQueue

    init(canvas: WrongQueueCanvas, queue: DispatchQueue) {
        self.canvas = canvas
        self.queue = queue
    }

    /// Runs `work` with the canvas, on the render queue. `work` is `@Sendable`: the compiler checks
    /// that everything it takes along is safe to hand to that queue.
    func async(_ work: @escaping @Sendable (WrongQueueCanvas) -> Void) {
        let canvas = self.canvas
        // FIX: the canvas is handed out on the render queue, and nowhere else.
        queue.async { work(canvas) }
    }
}

/// The same fix in Swift 6 terms. The class is `Sendable` (the compiler checks it: every stored
/// property is), so the blocks it sends to the render queue may take it along; and it keeps no
/// canvas of its own, so no button can touch the canvas where it stands: the only way to reach it
/// is a block queued on the render queue, behind the frames asked for before.
final class WrongQueueFixedSwift6: WrongQueueController, Sendable {
    private let renderQueue: WrongQueueOnRenderQueue  // FIX: no canvas here, only the way to it.

    init(environment: WrongQueueEnvironment) {
        renderQueue = WrongQueueOnRenderQueue(canvas: environment.canvas, queue: environment.renderQueue)
    }

    func render(frame: Int) {
        renderQueue.async { canvas in
            for row in 0..<WrongQueueCanvas.rows {
                canvas.paint(row: row, frame: frame)
            }
        }
    }

    func clear() {
        // FIX: the wipe is queued behind the frames asked for before it: it can neither cut one in
        // half nor overtake one.
        renderQueue.async { canvas in canvas.wipe() }
    }
}

extension WrongQueueLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<WrongQueueEnvironment, WrongQueueController>] {
        [LabVariant(.fixed, name: "fixed-confined") { WrongQueueFixedSwift6(environment: $0) }]
    }
}
