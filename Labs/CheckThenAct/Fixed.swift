import Foundation
import LabKit
import CheckThenAct

/// The count lives on a serial queue: the queue runs one block at a time, so "nobody else is
/// touching it" is guaranteed for the whole block instead of checked beforehand.
final class CheckThenActFixed: CheckThenActController {
    private let clerk: CheckThenActClerk
    private let queue = DispatchQueue(label: "check-then-act.count")  // FIX: a serial queue is the lock.
    private var count = 0  // touched only by blocks on `queue`

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        // FIX: the read, the slow work and the write are one block on the queue: no other thread
        // can come in between, so there is nothing left to check.
        queue.sync { count = clerk.addOne(to: count) }
    }

    var visits: Int { queue.sync { count } }  // FIX: reads go through the queue too.
}

extension CheckThenActLab {
    public static var solutions: [LabVariant<CheckThenActClerk, CheckThenActController>] {
        [LabVariant(.fixed) { CheckThenActFixed(clerk: $0) }]
    }
}
