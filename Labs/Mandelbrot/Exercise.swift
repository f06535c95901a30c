import Foundation
import LabKit
import Mandelbrot

// EXERCISE: a copy of the broken variant. Make it safe: no bitmap may be shared between the
// render and draw(), a frame is shown only when it is complete, renders finish in the order they
// were asked for, and renders still queued when the view goes away must not start. Check it with
// `make check LAB=mandelbrot`. Keep the class name MandelbrotExercise, `show(_:)`
// and `draw()`; change anything else.

/// The first threaded version: the view keeps one bitmap, a background thread renders into it,
/// and `draw()` puts that same bitmap on screen.
final class MandelbrotExercise: MandelbrotController {
    private let screen: MandelbrotScreen
    private let renderer: MandelbrotRenderer
    // TODO: fix this: one bitmap shared by two threads: the render thread writes it, draw() reads it on main.
    private var bitmap: MandelbrotBitmap?

    init(environment: MandelbrotEnvironment) {
        screen = environment.screen
        renderer = environment.renderer
    }

    func show(_ viewport: MandelbrotViewport) {
        bitmap = MandelbrotBitmap()  // a fresh picture to render into
        Thread.detachNewThread {
            // TODO: fix this: the thread fills self.bitmap row by row, while the system may ask the view to
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

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeMandelbrotExercise(_ environment: MandelbrotEnvironment) -> MandelbrotController {
    MandelbrotExercise(environment: environment)
}
