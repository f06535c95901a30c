// WRONG: renders one at a time (a serial queue) into a bitmap of their own, so no frame is torn;
// but the finished picture is stored into the view's bitmap on the render thread, while draw()
// reads that property on the main thread: a data race on the view's bitmap.
import Dispatch
import Foundation
import LabKit
import Mandelbrot

final class MandelbrotWrongAssignOnWorker: MandelbrotController {
    private let screen: MandelbrotScreen
    private let renderer: MandelbrotRenderer
    private var bitmap: MandelbrotBitmap?
    private let queue = DispatchQueue(label: "mandelbrot.corpus.assign")
    private var items: [DispatchWorkItem] = []  // main thread only

    init(environment: MandelbrotEnvironment) {
        screen = environment.screen
        renderer = environment.renderer
    }

    deinit { items.forEach { $0.cancel() } }

    func show(_ viewport: MandelbrotViewport) {
        let renderer = self.renderer
        let item = DispatchWorkItem { [weak self] in
            var picture = MandelbrotBitmap()
            renderer.render(viewport, into: &picture)
            guard let self else { return }
            self.bitmap = picture
            DispatchQueue.main.async { [weak self] in self?.screen.setNeedsDisplay() }
        }
        items.append(item)
        queue.async(execute: item)
    }

    func draw() {
        screen.draw(bitmap)
    }
}
