// WRONG: the check runs on OperationQueue.main, so its completion is on main too: every UI
// access is on main, but the mailbox is read on the main thread and the screen freezes meanwhile.
import Foundation
import LabKit
import CompletionUI

/// The check runs on OperationQueue.main: the completion block then just shows the result.
final class CompletionUIWrongCheckOnMain: CompletionUIController {
    private let screen: CompletionUIScreen

    init(screen: CompletionUIScreen) {
        self.screen = screen
    }

    func refresh(_ mailbox: CompletionUIMailbox) {
        screen.spinner.set(true)
        let fetch = CompletionUIFetchOperation(mailbox: mailbox)
        let show = BlockOperation { [weak self, unowned fetch] in
            guard let self else { return }
            self.screen.newMessages.setText(String(fetch.newMessages ?? 0))
            self.screen.spinner.set(false)
        }
        show.addDependency(fetch)
        // the fetch runs on the main queue: the main thread reads every page itself
        OperationQueue.main.addOperations([fetch, show], waitUntilFinished: false)
    }
}
