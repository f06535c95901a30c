// VALID: refresh() runs on the main thread, where OperationQueue.current is the main queue; the
// controller remembers that queue and the completion block sends the update back to it. The
// blocks hold the screen weakly, so it dies on the main thread.
import Foundation
import LabKit
import CompletionUI

final class CompletionUIValidCallerQueue: CompletionUIController {
    private let screen: CompletionUIScreen
    private let queue = OperationQueue()

    init(screen: CompletionUIScreen) { self.screen = screen }

    func refresh(_ mailbox: CompletionUIMailbox) {
        screen.spinner.set(true)
        let callerQueue = OperationQueue.current ?? OperationQueue.main
        let fetch = CompletionUIFetchOperation(mailbox: mailbox)
        fetch.completionBlock = { [unowned fetch, weak screen] in
            let count = fetch.newMessages ?? 0
            callerQueue.addOperation {
                screen?.newMessages.setText(String(count))
                screen?.spinner.set(false)
            }
        }
        queue.addOperation(fetch)
    }
}
