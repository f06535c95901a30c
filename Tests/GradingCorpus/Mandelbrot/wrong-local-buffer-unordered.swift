// WRONG: each render fills a bitmap of its own and hands it over on the main thread, so no frame
// is ever torn; but renders run side by side and whichever finishes last is shown: an older zoom
// that finishes after a newer one replaces it.
import Foundation
import LabKit
import Mandelbrot

final class MandelbrotWrongLocalBufferUnordered: MandelbrotController {
    private let screen: MandelbrotScreen
    private let renderer: MandelbrotRenderer
    private var bitmap: MandelbrotBitmap?  // main thread only

    init(environment: MandelbrotEnvironment) {
        screen = environment.screen
        renderer = environment.renderer
    }

    func show(_ viewport: MandelbrotViewport) {
        let renderer = self.renderer
        Thread.detachNewThread { [weak self] in
            var picture = MandelbrotBitmap()
            renderer.render(viewport, into: &picture)
            DispatchQueue.main.async {
                self?.bitmap = picture
                self?.screen.setNeedsDisplay()
            }
        }
    }

    func draw() {
        screen.draw(bitmap)
    }
}
