// WRONG: makes the flag an Atomic but still looks (load) and raises it (store) in two steps: two visitors can both see it down before either raises it. No data race left for TSan, and the window is only a few instructions wide.
import Foundation
import LabKit
import CheckThenAct
import Synchronization

final class CheckThenActWrongAtomicFlagLoadStore: CheckThenActController {
    private let clerk: CheckThenActClerk
    private let someoneIsUpdating = Atomic<Bool>(false)
    private var count = 0

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        while someoneIsUpdating.load(ordering: .acquiring) { clerk.waitATurn() }
        someoneIsUpdating.store(true, ordering: .relaxed)
        count = clerk.addOne(to: count)
        someoneIsUpdating.store(false, ordering: .releasing)
    }

    var visits: Int {
        while someoneIsUpdating.load(ordering: .acquiring) { clerk.waitATurn() }
        return count
    }
}
