import Foundation
import LabKit
import Mandelbrot

/// The same fix in Swift 6 terms (this file is built in the Swift 6 language mode): the view is
/// `@MainActor`, so its picture is main-actor state the compiler guards. A render is a `Task`:
/// the rendering runs off the main actor into a bitmap of its own and comes back with the
/// finished picture, a value, which the view swaps in on the main actor. A newer request
/// cancels the older one, and the view cancels what is left when it goes away.
@MainActor
final class MandelbrotFixedSwift6: MandelbrotController {
    private let screen: MandelbrotScreen
    private let renderer: MandelbrotRenderer
    private var bitmap: MandelbrotBitmap?  // main actor only
    private var rendering: Task<Void, Never>?  // the newest render; main actor only

    nonisolated init(environment: MandelbrotEnvironment) {
        screen = environment.screen
        renderer = environment.renderer
    }

    isolated deinit {
        rendering?.cancel()  // FIX: the view is going away: a render not yet started never starts.
    }

    // The harness calls these on the main thread; `assumeIsolated` checks that it is (and traps
    // if not) instead of trusting a comment.
    nonisolated func show(_ viewport: MandelbrotViewport) {
        MainActor.assumeIsolated { startRender(viewport) }
    }

    nonisolated func draw() {
        MainActor.assumeIsolated { screen.draw(bitmap) }  // only the view's own, complete picture
    }

    private func startRender(_ viewport: MandelbrotViewport) {
        rendering?.cancel()  // FIX: an older render is not wanted any more.
        let renderer = self.renderer
        // This task inherits the main actor: it starts and resumes on the main thread. It holds
        // the view weakly: a view that went away is not kept alive by its render.
        rendering = Task { [weak self] in
            let picture = await Self.render(viewport, with: renderer)
            // FIX: back on the main actor, where a newer request cancels this task: a render
            // that finishes after a newer one was asked for is never shown.
            guard let picture, !Task.isCancelled else { return }
            self?.renderFinished(picture)
        }
    }

    /// Off the main actor (`@concurrent`): renders into a bitmap nobody else can see and returns
    /// it, or nil if the render was cancelled before it began.
    @concurrent
    private nonisolated static func render(_ viewport: MandelbrotViewport, with renderer: MandelbrotRenderer) async -> MandelbrotBitmap? {
        if Task.isCancelled { return nil }
        var picture = MandelbrotBitmap()  // FIX: local to this render; no other thread can see it.
        renderer.render(viewport, into: &picture)
        return picture  // FIX: a value crosses back to the main actor, never a shared bitmap.
    }

    private func renderFinished(_ picture: MandelbrotBitmap) {
        bitmap = picture  // FIX: swapped in whole, on the main actor.
        screen.setNeedsDisplay()
    }
}

extension MandelbrotLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<MandelbrotEnvironment, MandelbrotController>] {
        [LabVariant(.fixed, name: "fixed-task", runsTasks: true) { MandelbrotFixedSwift6(environment: $0) }]
    }
}
