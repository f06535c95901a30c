// WRONG: the flag is behind a lock now, but checking it and raising it are two separately
// locked steps: two visitors can both see it down between them, and one visit is lost. No data
// race: ThreadSanitizer is silent.
import Foundation
import LabKit
import CheckThenAct

/// Check-then-act with the flag behind a lock: the check and the raise are two separate
/// locked steps, so two visitors can both see the flag down.
final class CheckThenActWrongCheckAndRaiseLockedApart: CheckThenActController {
    private let clerk: CheckThenActClerk
    private let lock = NSLock()
    private var count = 0
    private var someoneIsUpdating = false

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    private var busy: Bool { lock.withLock { someoneIsUpdating } }

    func recordVisit() {
        while busy { clerk.waitATurn() }
        lock.withLock { someoneIsUpdating = true }
        let next = clerk.addOne(to: lock.withLock { count })
        lock.withLock {
            count = next
            someoneIsUpdating = false
        }
    }

    var visits: Int { lock.withLock { count } }
}
