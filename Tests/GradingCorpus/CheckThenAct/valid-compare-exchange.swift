// VALID: lock-free: an Atomic count updated with a compare-exchange loop; if another visit got in while this one worked out its new count, it starts again from the newer count.
import Foundation
import LabKit
import CheckThenAct
import Synchronization

final class CheckThenActValidCompareExchange: CheckThenActController {
    private let clerk: CheckThenActClerk
    private let count = Atomic<Int>(0)

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        var current = count.load(ordering: .relaxed)
        while true {
            let next = clerk.addOne(to: current)
            let (exchanged, seen) = count.compareExchange(expected: current, desired: next, ordering: .sequentiallyConsistent)
            if exchanged { return }
            current = seen  // someone else counted meanwhile: redo it from their count
        }
    }

    var visits: Int { count.load(ordering: .sequentiallyConsistent) }
}
