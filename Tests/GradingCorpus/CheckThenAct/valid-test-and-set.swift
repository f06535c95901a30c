// VALID: keeps the flag but makes check-and-raise one step: an Atomic compare-exchange from false to true (a spin lock), lowered with releasing order; the read takes the flag too.
import Foundation
import LabKit
import CheckThenAct
import Synchronization

final class CheckThenActValidTestAndSet: CheckThenActController {
    private let clerk: CheckThenActClerk
    private let someoneIsUpdating = Atomic<Bool>(false)
    private var count = 0  // only touched by the thread that raised the flag

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    private func raiseFlag() {
        // Look and raise in one indivisible step: only one thread can turn false into true.
        while !someoneIsUpdating.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            clerk.waitATurn()
        }
    }

    private func lowerFlag() {
        someoneIsUpdating.store(false, ordering: .releasing)
    }

    func recordVisit() {
        raiseFlag()
        count = clerk.addOne(to: count)
        lowerFlag()
    }

    var visits: Int {
        raiseFlag()
        defer { lowerFlag() }
        return count
    }
}
