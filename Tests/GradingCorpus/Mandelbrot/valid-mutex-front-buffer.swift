// VALID: double buffering. Each render thread fills a private back buffer; when it is complete,
// it is swapped into the front buffer under a Mutex, unless a newer render got there first; draw()
// copies the front buffer under the same Mutex. The redraw request goes through the main queue.
// A render thread that starts only after the view went away does nothing.
import Foundation
import LabKit
import Mandelbrot
import Synchronization

/// The picture on show and the ticket of the render that made it, behind one Mutex.
final class MandelbrotValidFrontBuffer: @unchecked Sendable {
    struct Front {
        var ticket = -1
        var bitmap: MandelbrotBitmap?
    }
    let state = Mutex(Front())
}

final class MandelbrotValidMutexFrontBuffer: MandelbrotController {
    private let screen: MandelbrotScreen
    private let renderer: MandelbrotRenderer
    private let front = MandelbrotValidFrontBuffer()
    private var nextTicket = 0  // main thread only

    private let alive = MandelbrotValidAliveFlag()

    init(environment: MandelbrotEnvironment) {
        screen = environment.screen
        renderer = environment.renderer
    }

    deinit { alive.clear() }

    func show(_ viewport: MandelbrotViewport) {
        let ticket = nextTicket
        nextTicket += 1
        let renderer = self.renderer, front = self.front, alive = self.alive
        Thread.detachNewThread { [weak self] in
            guard alive.isSet else { return }  // started only after the view went away: skip it
            var back = MandelbrotBitmap()
            renderer.render(viewport, into: &back)
            let swapped = front.state.withLock { front -> Bool in
                guard ticket > front.ticket else { return false }
                front = MandelbrotValidFrontBuffer.Front(ticket: ticket, bitmap: back)
                return true
            }
            guard swapped else { return }
            DispatchQueue.main.async { self?.screen.setNeedsDisplay() }
        }
    }

    func draw() {
        screen.draw(front.state.withLock { $0.bitmap })
    }
}
