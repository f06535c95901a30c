// VALID: the count lives inside Swift 6's Mutex; each update is one withLock block, and so is the read.
import Foundation
import LabKit
import CheckThenAct
import Synchronization

final class CheckThenActValidMutex: CheckThenActController {
    private let clerk: CheckThenActClerk
    private let count = Mutex(0)

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        count.withLock { $0 = clerk.addOne(to: $0) }
    }

    var visits: Int { count.withLock { $0 } }
}
