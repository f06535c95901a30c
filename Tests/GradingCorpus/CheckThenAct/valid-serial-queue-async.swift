// VALID: a serial queue owns the count; a visit is one async block (the visitor does not wait), and reading the count is a sync block, which runs after every visit queued before it.
import Foundation
import LabKit
import CheckThenAct

final class CheckThenActValidSerialQueueAsync: CheckThenActController {
    private let clerk: CheckThenActClerk
    private let queue = DispatchQueue(label: "check-then-act.count")
    private var count = 0  // touched only by blocks on `queue`

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        queue.async { self.count = self.clerk.addOne(to: self.count) }
    }

    var visits: Int { queue.sync { count } }
}
