// WRONG: the label now goes through the main queue, but the spinner is still stopped straight
// from the completion block, on the background thread. Half the UI is still touched off main.
import Foundation
import LabKit
import CompletionUI

final class CompletionUIWrongLabelOnly: CompletionUIController {
    private let screen: CompletionUIScreen
    private let queue = OperationQueue()

    init(screen: CompletionUIScreen) { self.screen = screen }

    func refresh(_ mailbox: CompletionUIMailbox) {
        screen.spinner.set(true)
        let fetch = CompletionUIFetchOperation(mailbox: mailbox)
        let screen = self.screen
        fetch.completionBlock = { [unowned fetch] in
            let count = fetch.newMessages ?? 0
            OperationQueue.main.addOperation { screen.newMessages.setText(String(count)) }
            screen.spinner.set(false)
        }
        queue.addOperation(fetch)
    }
}
