import Dispatch
import Foundation
import LabKit
import Mandelbrot

/// The GCD version: a serial queue renders into a bitmap local to the block, then hands it to
/// the main queue, which is the only place the view's picture changes.
final class MandelbrotFixedGCD: MandelbrotController {
    private let screen: MandelbrotScreen
    private let renderer: MandelbrotRenderer
    private var bitmap: MandelbrotBitmap?  // main thread only
    private let queue = DispatchQueue(label: "mandelbrot.render")  // FIX: a serial queue: one render at a time, in order.
    private var pending: [Int: DispatchWorkItem] = [:]  // main thread only
    private var nextTicket = 0  // main thread only

    init(environment: MandelbrotEnvironment) {
        screen = environment.screen
        renderer = environment.renderer
    }

    deinit {
        for item in pending.values { item.cancel() }  // FIX: renders still queued never start.
    }

    func show(_ viewport: MandelbrotViewport) {
        let renderer = self.renderer
        let ticket = nextTicket
        nextTicket += 1
        // The block holds the view weakly: it must not keep a view alive that went away.
        let item = DispatchWorkItem { [weak self] in
            var picture = MandelbrotBitmap()  // FIX: local to the block; no other thread can see it.
            renderer.render(viewport, into: &picture)
            DispatchQueue.main.async {
                self?.renderFinished(ticket, picture)  // FIX: handed over on the main thread.
            }
        }
        pending[ticket] = item
        queue.async(execute: item)
    }

    private func renderFinished(_ ticket: Int, _ picture: MandelbrotBitmap) {
        pending[ticket] = nil
        bitmap = picture
        screen.setNeedsDisplay()
    }

    func draw() {
        screen.draw(bitmap)
    }
}
