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
        let screen = self.screen
        fetch.completionBlock = { [unowned fetch] in
            // The completion block runs on a background thread: it reads the finished
            // operation's answer and touches nothing of the screen.
            let count = fetch.newMessages ?? 0
            // FIX: hop to the main queue; the screen is updated there and only there.
            OperationQueue.main.addOperation {
                screen.newMessages.setText(String(count))
                screen.spinner.set(false)
            }
        }
        queue.addOperation(fetch)
    }
}

extension CompletionUILab {
    public static var solutions: [LabVariant<CompletionUIScreen, CompletionUIController>] {
        [LabVariant(.fixed) { CompletionUIFixed(screen: $0) }]
    }
}
