// WRONG: each call makes its own NSLock and locks it: every visitor holds a different lock, so none ever waits for another.
import Foundation
import LabKit
import CheckThenAct

final class CheckThenActWrongLockPerCall: CheckThenActController {
    private let clerk: CheckThenActClerk
    private var count = 0

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        let lock = NSLock()
        lock.lock()
        count = clerk.addOne(to: count)
        lock.unlock()
    }

    var visits: Int {
        let lock = NSLock()
        return lock.withLock { count }
    }
}
