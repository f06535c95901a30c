// WRONG: a serial queue renders each zoom into a bitmap of its own and hands it over on the main
// thread, in order; but when the view goes away nothing cancels the renders still waiting in the
// queue: they start anyway, for a view nobody will see.
import Dispatch
import Foundation
import LabKit
import Mandelbrot

final class MandelbrotWrongKeepsQueuedRenders: MandelbrotController {
    private let screen: MandelbrotScreen
    private let renderer: MandelbrotRenderer
    private var bitmap: MandelbrotBitmap?  // main thread only
    private let queue = DispatchQueue(label: "mandelbrot.corpus.keeps")

    init(environment: MandelbrotEnvironment) {
        screen = environment.screen
        renderer = environment.renderer
    }

    func show(_ viewport: MandelbrotViewport) {
        let renderer = self.renderer
        queue.async { [weak self] in
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
