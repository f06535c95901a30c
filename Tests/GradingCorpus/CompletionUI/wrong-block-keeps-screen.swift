// WRONG: right about threads (the screen is touched only on the main queue), but the completion
// block holds the screen itself. That block is let go of on the operation's thread; when it is
// the screen's last owner, the screen dies there, off the main thread.
import Foundation
import LabKit
import CompletionUI

final class CompletionUIWrongBlockKeepsScreen: CompletionUIController {
    private let screen: CompletionUIScreen
    private let queue = OperationQueue()

    init(screen: CompletionUIScreen) { self.screen = screen }

    func refresh(_ mailbox: CompletionUIMailbox) {
        screen.spinner.set(true)
        let fetch = CompletionUIFetchOperation(mailbox: mailbox)
        let screen = self.screen
        fetch.completionBlock = { [unowned fetch] in
            let count = fetch.newMessages ?? 0
            DispatchQueue.main.async {
                screen.newMessages.setText(String(count))
                screen.spinner.set(false)
            }
        }
        queue.addOperation(fetch)
    }
}
