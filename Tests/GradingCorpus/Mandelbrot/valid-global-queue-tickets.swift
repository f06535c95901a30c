// VALID: each render runs on a global queue into a bitmap of its own and hands it to the main
// queue with its ticket; the main thread keeps a picture only if it is newer than the one it has.
// Renders run side by side, but an older one can never replace a newer one. A block first checks
// that the view still exists: GCD may start it late (no free thread), after the view went away.
import Dispatch
import Foundation
import LabKit
import Mandelbrot

final class MandelbrotValidGlobalQueueTickets: MandelbrotController {
    private let screen: MandelbrotScreen
    private let renderer: MandelbrotRenderer
    private var bitmap: MandelbrotBitmap?  // main thread only
    private var nextTicket = 0  // main thread only
    private var shownTicket = -1  // main thread only

    private let alive = MandelbrotValidAliveFlag()

    init(environment: MandelbrotEnvironment) {
        screen = environment.screen
        renderer = environment.renderer
    }

    deinit { alive.clear() }

    func show(_ viewport: MandelbrotViewport) {
        let ticket = nextTicket
        nextTicket += 1
        let renderer = self.renderer, alive = self.alive
        DispatchQueue.global().async { [weak self] in
            guard alive.isSet else { return }  // started only after the view went away: skip it
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
