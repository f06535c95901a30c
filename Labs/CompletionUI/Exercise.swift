import Foundation
import LabKit
import CompletionUI

/// EXERCISE: this starts as a copy of the broken variant. Make every screen update happen on
/// the main thread, while the check itself still runs on the background queue. The harness runs
/// it with `make check LAB=completion-ui`. Keep the class name and
/// `refresh(_:)`; change anything else.
///
/// Checks for new mail with an operation on a background queue, and puts the answer on the
/// screen from the operation's completion block.
final class CompletionUIExercise: CompletionUIController {
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
            // TODO: fix this: a completion block runs on a background thread (whichever one finished the
            // operation), never promised to be the main thread. These two lines touch the UI
            // from there. (And this block holds the screen: it must not be the screen's last owner.)
            screen.newMessages.setText(String(fetch.newMessages ?? 0))
            screen.spinner.set(false)
        }
        queue.addOperation(fetch)
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeCompletionUIExercise(_ screen: CompletionUIScreen) -> CompletionUIController {
    CompletionUIExercise(screen: screen)
}
