// VALID: one serial queue renders the zooms in the order asked, each into a bitmap of its own;
// a block first checks (through a weak reference) that the view still exists, and skips the
// render if it went away; the picture is swapped in on the main thread.
import Dispatch
import Foundation
import LabKit
import Mandelbrot

final class MandelbrotValidSerialQueueSkipWhenGone: MandelbrotController {
    private let screen: MandelbrotScreen
    private let renderer: MandelbrotRenderer
    private var bitmap: MandelbrotBitmap?  // main thread only
    private let queue = DispatchQueue(label: "mandelbrot.corpus.render")
    private let alive = MandelbrotValidAliveFlag()

    init(environment: MandelbrotEnvironment) {
        screen = environment.screen
        renderer = environment.renderer
    }

    deinit { alive.clear() }

    func show(_ viewport: MandelbrotViewport) {
        let renderer = self.renderer, alive = self.alive
        queue.async { [weak self] in
            guard alive.isSet else { return }  // the view went away: do not even start
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

/// True while the view exists; cleared (under its lock) when the view goes away.
final class MandelbrotValidAliveFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = true
    var isSet: Bool { lock.withLock { value } }
    func clear() { lock.withLock { value = false } }
}
