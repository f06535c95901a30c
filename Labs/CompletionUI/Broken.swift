import Foundation
import LabKit

/// Checks for new mail with an operation on a background queue, and puts the answer on the
/// screen from the operation's completion block.
final class CompletionUIBroken: CompletionUIController {
    private let screen: CompletionUIScreen
    private let queue = OperationQueue()

    init(screen: CompletionUIScreen) {
        self.screen = screen
    }

    func refresh(_ mailbox: CompletionUIMailbox) {
        screen.spinner.set(true)
        let fetch = CompletionUIFetchOperation(mailbox: mailbox)
        let screen = self.screen
        fetch.completionBlock = { [unowned fetch] in
            // BUG: a completion block runs on a background thread (whichever one finished the
            // operation), never promised to be the main thread. These two lines touch the UI
            // from there.
            screen.newMessages.setText(String(fetch.newMessages ?? 0))
            screen.spinner.set(false)
        }
        queue.addOperation(fetch)
    }
}
