// VALID: no completion block at all. The screen update is an operation of its own on the main
// queue, made dependent on the fetch: it starts only once the fetch has finished, on main.
import Foundation
import LabKit
import CompletionUI

final class CompletionUIValidUIOperationDependency: CompletionUIController {
    private let screen: CompletionUIScreen
    private let queue = OperationQueue()

    init(screen: CompletionUIScreen) { self.screen = screen }

    func refresh(_ mailbox: CompletionUIMailbox) {
        screen.spinner.set(true)
        let fetch = CompletionUIFetchOperation(mailbox: mailbox)
        let screen = self.screen
        let show = BlockOperation { [unowned fetch] in
            screen.newMessages.setText(String(fetch.newMessages ?? 0))
            screen.spinner.set(false)
        }
        show.addDependency(fetch)
        OperationQueue.main.addOperation(show)
        queue.addOperation(fetch)
    }
}
