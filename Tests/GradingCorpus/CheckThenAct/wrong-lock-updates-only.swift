// WRONG: every update holds the lock for its whole read-modify-write, but reading `visits` skips the lock ("a read cannot hurt"): nothing orders that read after the visitors' writes.
import Foundation
import LabKit
import CheckThenAct

final class CheckThenActWrongLockUpdatesOnly: CheckThenActController {
    private let clerk: CheckThenActClerk
    private let lock = NSLock()
    private var count = 0

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        lock.withLock { count = clerk.addOne(to: count) }
    }

    var visits: Int { count }
}
