import Foundation
import LabKit

/// The first threaded version: the view keeps one bitmap, a background thread renders into it,
/// and `draw()` puts that same bitmap on screen.
final class MandelbrotBroken: MandelbrotController {
    private let screen: MandelbrotScreen
    private let renderer: MandelbrotRenderer
    // BUG: one bitmap shared by two threads: the render thread writes it, draw() reads it on main.
    private var bitmap: MandelbrotBitmap?

    init(environment: MandelbrotEnvironment) {
        screen = environment.screen
        renderer = environment.renderer
    }

    func show(_ viewport: MandelbrotViewport) {
        bitmap = MandelbrotBitmap()  // a fresh picture to render into
        Thread.detachNewThread {
            // BUG: the thread fills self.bitmap row by row, while the system may ask the view to
            // draw at any moment: draw() then reads a half-filled bitmap (a data race, and a torn frame).
            self.renderer.render(viewport, into: &self.bitmap!)
            // Only the redraw request goes back to the main thread (that rule has its own lab).
            DispatchQueue.main.async {
                self.screen.setNeedsDisplay()
            }
        }
    }

    func draw() {
        screen.draw(bitmap)
    }
}
