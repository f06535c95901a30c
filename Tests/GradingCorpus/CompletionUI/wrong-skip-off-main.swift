// WRONG: "never touch the UI off the main thread", taken literally: the completion block checks
// where it runs and does nothing when it is not main. It never is, so the answer never shows
// and the spinner turns for ever.
import Foundation
import LabKit
import CompletionUI

final class CompletionUIWrongSkipOffMain: CompletionUIController {
    private let screen: CompletionUIScreen
    private let queue = OperationQueue()

    init(screen: CompletionUIScreen) { self.screen = screen }

    func refresh(_ mailbox: CompletionUIMailbox) {
        screen.spinner.set(true)
        let fetch = CompletionUIFetchOperation(mailbox: mailbox)
        let screen = self.screen
        fetch.completionBlock = { [unowned fetch] in
            guard Thread.isMainThread else { return }
            screen.newMessages.setText(String(fetch.newMessages ?? 0))
            screen.spinner.set(false)
        }
        queue.addOperation(fetch)
    }
}
