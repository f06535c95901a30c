// WRONG: the screen update is an operation on the main queue, as it should be, but nothing makes
// it wait for the fetch: it runs as soon as the main thread is free, while the fetch is still
// reading pages. It shows no answer (and reads the answer while the fetch thread writes it).
import Foundation
import LabKit
import CompletionUI

final class CompletionUIWrongUIOperationNoDependency: CompletionUIController {
    private let screen: CompletionUIScreen
    private let queue = OperationQueue()

    init(screen: CompletionUIScreen) { self.screen = screen }

    func refresh(_ mailbox: CompletionUIMailbox) {
        screen.spinner.set(true)
        let fetch = CompletionUIFetchOperation(mailbox: mailbox)
        let screen = self.screen
        queue.addOperation(fetch)
        OperationQueue.main.addOperation {
            screen.newMessages.setText(String(fetch.newMessages ?? 0))
            screen.spinner.set(false)
        }
    }
}
