// WRONG: renders side by side on a global queue, each into a bitmap of its own, handed to the
// main thread with a ticket so that an older picture never replaces a newer one; but a block
// starts its render without asking whether the view still exists. When the pool has no free
// thread, a render asked for just before the view went away starts after it: work nobody sees.
import Dispatch
import Foundation
import LabKit
import Mandelbrot

final class MandelbrotWrongGlobalQueueNoViewCheck: MandelbrotController {
    private let screen: MandelbrotScreen
    private let renderer: MandelbrotRenderer
    private var bitmap: MandelbrotBitmap?  // main thread only
    private var nextTicket = 0  // main thread only
    private var shownTicket = -1  // main thread only

    init(environment: MandelbrotEnvironment) {
        screen = environment.screen
        renderer = environment.renderer
    }

    func show(_ viewport: MandelbrotViewport) {
        let ticket = nextTicket
        nextTicket += 1
        let renderer = self.renderer
        DispatchQueue.global().async { [weak self] in
            var picture = MandelbrotBitmap()
            renderer.render(viewport, into: &picture)
            DispatchQueue.main.async {
                self?.rendered(picture, ticket: ticket)
            }
        }
    }

    private func rendered(_ picture: MandelbrotBitmap, ticket: Int) {
        guard ticket > shownTicket else { return }  // an older render finished late
        shownTicket = ticket
        bitmap = picture
        screen.setNeedsDisplay()
    }

    func draw() {
        screen.draw(bitmap)
    }
}
