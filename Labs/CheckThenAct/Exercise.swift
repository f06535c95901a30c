import Foundation
import LabKit
import CheckThenAct

/// EXERCISE: this starts as a copy of the broken variant. Make the count safe when many threads
/// record visits at once: no visit may be lost, and no data race. The harness runs it with
/// `make check LAB=check-then-act`. Keep the class name, `recordVisit()` and
/// `visits`; change anything else.
///
/// A visitor counter that many threads update. It keeps a flag meaning "someone is updating the
/// count right now" and waits until the flag is down before it updates the count itself.
final class CheckThenActExercise: CheckThenActController {
    private let clerk: CheckThenActClerk
    private var count = 0
    private var someoneIsUpdating = false

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        // Check: is anybody else touching the count? Wait until nobody is.
        while someoneIsUpdating { clerk.waitATurn() }
        // TODO: fix this: check-then-act. "Nobody is touching it" was true when we looked, not any more: while
        // this thread works out the new count, another thread can pass the same check, and the two
        // updates overwrite each other. (The flag itself is read and written with no lock: a race.)
        let next = clerk.addOne(to: count)
        someoneIsUpdating = true
        count = next
        someoneIsUpdating = false
    }

    var visits: Int { count }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeCheckThenActExercise(_ clerk: CheckThenActClerk) -> CheckThenActController {
    CheckThenActExercise(clerk: clerk)
}
