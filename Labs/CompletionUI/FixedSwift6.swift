import Foundation
import LabKit
import CompletionUI

/// The same fix in Swift 6 terms (this file is built in the Swift 6 language mode): the
/// controller is `@MainActor`, so the compiler knows which code may touch the screen. The
/// completion block is a `@Sendable` closure that runs on a background thread; it cannot call
/// the main-actor `show` directly (Swift 6 refuses to compile that), only hand the count to a
/// task on the main actor.
@MainActor
final class CompletionUIFixedSwift6: CompletionUIController {
    private let screen: CompletionUIScreen
    private let queue: OperationQueue

    nonisolated init(screen: CompletionUIScreen) {
        self.screen = screen
        queue = OperationQueue()
        queue.name = "completion-ui.fetch"
    }

    // The harness calls this on the main thread; `assumeIsolated` checks that it is (and traps
    // if not) instead of trusting a comment.
    nonisolated func refresh(_ mailbox: CompletionUIMailbox) {
        MainActor.assumeIsolated { startCheck(mailbox) }
    }

    private func startCheck(_ mailbox: CompletionUIMailbox) {
        screen.spinner.set(true)  // main actor: the main thread
        let fetch = CompletionUIFetchOperation(mailbox: mailbox)
        fetch.completionBlock = { [weak self, unowned fetch] in
            // A background thread: only the finished operation's answer is read here.
            let count = fetch.newMessages ?? 0
            // FIX: the screen is updated on the main actor. `self?.show(count)` right here would
            // not compile: show is main-actor isolated and this closure is not.
            Task { @MainActor in self?.show(count) }
        }
        queue.addOperation(fetch)
    }

    /// Main actor only: the compiler holds every caller to it. The controller is held weakly and
    /// loaded only here, so a screen is never released on the operation's thread.
    private func show(_ count: Int) {
        screen.newMessages.setText(String(count))
        screen.spinner.set(false)
    }
}

extension CompletionUILab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<CompletionUIScreen, CompletionUIController>] {
        [LabVariant(.fixed, name: "fixed-main-actor") { CompletionUIFixedSwift6(screen: $0) }]
    }
}
