// VALID: the completion block hands the answer to the main dispatch queue (the same main
// thread OperationQueue.main runs on) and touches the screen only there. Both blocks hold the
// screen weakly: only the main thread ever owns it, so it dies there.
import Foundation
import LabKit
import CompletionUI

final class CompletionUIValidDispatchMain: CompletionUIController {
    private let screen: CompletionUIScreen
    private let queue = OperationQueue()

    init(screen: CompletionUIScreen) { self.screen = screen }

    func refresh(_ mailbox: CompletionUIMailbox) {
        screen.spinner.set(true)
        let fetch = CompletionUIFetchOperation(mailbox: mailbox)
        fetch.completionBlock = { [unowned fetch, weak screen] in
            let count = fetch.newMessages ?? 0
            DispatchQueue.main.async {
                screen?.newMessages.setText(String(count))
                screen?.spinner.set(false)
            }
        }
        queue.addOperation(fetch)
    }
}
