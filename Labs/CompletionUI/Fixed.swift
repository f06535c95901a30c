import Foundation
import LabKit
import CompletionUI

/// The check still runs on the background queue; its completion block only hands the answer to
/// the main queue, and everything that touches the screen runs there.
final class CompletionUIFixed: CompletionUIController {
    private let screen: CompletionUIScreen
    private let queue = OperationQueue()

    init(screen: CompletionUIScreen) {
        self.screen = screen
        queue.name = "completion-ui.fetch"
    }

    func refresh(_ mailbox: CompletionUIMailbox) {
        screen.spinner.set(true)  // on the main thread: refresh is called there
        let fetch = CompletionUIFetchOperation(mailbox: mailbox)
        fetch.completionBlock = { [weak self, unowned fetch] in
            // The completion block runs on a background thread: it reads the finished
            // operation's answer and touches nothing of the screen.
            let count = fetch.newMessages ?? 0
            // FIX: hop to the main queue; the screen is updated there and only there.
            OperationQueue.main.addOperation { self?.show(count) }
        }
        queue.addOperation(fetch)
    }

    /// On the main thread. The blocks reach the screen through the controller, which they hold
    /// weakly (and load only here, on main): a block that held the screen itself would be its last
    /// owner when it is freed on the operation's thread, and a view must die on the main thread.
    private func show(_ count: Int) {
        screen.newMessages.setText(String(count))
        screen.spinner.set(false)
    }
}

extension CompletionUILab {
    public static var solutions: [LabVariant<CompletionUIScreen, CompletionUIController>] {
        [LabVariant(.fixed) { CompletionUIFixed(screen: $0) }]
    }
}
