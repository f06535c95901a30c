import Foundation
import LabKit

/// A visitor counter that many threads update. It keeps a flag meaning "someone is updating the
/// count right now" and waits until the flag is down before it updates the count itself.
final class CheckThenActBroken: CheckThenActController {
    private let clerk: CheckThenActClerk
    private var count = 0
    private var someoneIsUpdating = false

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        // Check: is anybody else touching the count? Wait until nobody is.
        while someoneIsUpdating { clerk.waitATurn() }
        // BUG: check-then-act. "Nobody is touching it" was true when we looked, not any more: while
        // this thread works out the new count, another thread can pass the same check, and the two
        // updates overwrite each other. (The flag itself is read and written with no lock: a race.)
        let next = clerk.addOne(to: count)
        someoneIsUpdating = true
        count = next
        someoneIsUpdating = false
    }

    var visits: Int { count }
}
