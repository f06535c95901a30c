// WRONG: the render thread holds a lock while it fills the shared bitmap, but draw() reads the
// bitmap without taking it: the system can still draw a half-filled picture, and the two threads
// still race on it.
import Foundation
import LabKit
import Mandelbrot

final class MandelbrotWrongLockRenderOnly: MandelbrotController {
    private let screen: MandelbrotScreen
    private let renderer: MandelbrotRenderer
    private let lock = NSLock()
    private var bitmap: MandelbrotBitmap?

    init(environment: MandelbrotEnvironment) {
        screen = environment.screen
        renderer = environment.renderer
    }

    func show(_ viewport: MandelbrotViewport) {
        Thread.detachNewThread {
            self.lock.lock()
            if self.bitmap == nil { self.bitmap = MandelbrotBitmap() }
            self.renderer.render(viewport, into: &self.bitmap!)
            self.lock.unlock()
            DispatchQueue.main.async { self.screen.setNeedsDisplay() }
        }
    }

    func draw() {
        screen.draw(bitmap)
    }
}
