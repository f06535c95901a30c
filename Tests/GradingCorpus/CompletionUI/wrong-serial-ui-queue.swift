// WRONG: the screen updates go through a serial queue of their own, so two updates can never
// overlap. But "one at a time" is not "on the main thread": the serial queue runs its blocks on
// a background thread.
import Foundation
import LabKit
import CompletionUI

final class CompletionUIWrongSerialUIQueue: CompletionUIController {
    private let screen: CompletionUIScreen
    private let queue = OperationQueue()
    private let uiQueue = DispatchQueue(label: "completion-ui.screen-updates")

    init(screen: CompletionUIScreen) { self.screen = screen }

    func refresh(_ mailbox: CompletionUIMailbox) {
        screen.spinner.set(true)
        let fetch = CompletionUIFetchOperation(mailbox: mailbox)
        let screen = self.screen
        let uiQueue = self.uiQueue
        fetch.completionBlock = { [unowned fetch] in
            let count = fetch.newMessages ?? 0
            uiQueue.async {
                screen.newMessages.setText(String(count))
                screen.spinner.set(false)
            }
        }
        queue.addOperation(fetch)
    }
}
