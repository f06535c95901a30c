// VALID: no flag: one NSLock held for the whole read, slow step and write, and for the read of the count.
import Foundation
import LabKit
import CheckThenAct

final class CheckThenActValidNSLock: CheckThenActController {
    private let clerk: CheckThenActClerk
    private let lock = NSLock()
    private var count = 0  // only touched with `lock` held

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        lock.lock()
        defer { lock.unlock() }
        count = clerk.addOne(to: count)
    }

    var visits: Int { lock.withLock { count } }
}
