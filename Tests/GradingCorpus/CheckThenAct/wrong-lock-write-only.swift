// WRONG: drops the flag and locks only the write: the count is read and the new one worked out outside the lock, so two visitors can still start from the same old count.
import Foundation
import LabKit
import CheckThenAct

final class CheckThenActWrongLockWriteOnly: CheckThenActController {
    private let clerk: CheckThenActClerk
    private let lock = NSLock()
    private var count = 0

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        let next = clerk.addOne(to: lock.withLock { count })
        lock.withLock { count = next }
    }

    var visits: Int { lock.withLock { count } }
}
