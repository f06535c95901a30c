// WRONG: raises the plain Bool flag right after the wait instead of after the slow step: the gap between seeing it down and raising it is narrower, still there, and the flag itself is a data race.
import Foundation
import LabKit
import CheckThenAct

final class CheckThenActWrongFlagRaisedEarlier: CheckThenActController {
    private let clerk: CheckThenActClerk
    private var count = 0
    private var someoneIsUpdating = false

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        while someoneIsUpdating { clerk.waitATurn() }
        someoneIsUpdating = true
        count = clerk.addOne(to: count)
        someoneIsUpdating = false
    }

    var visits: Int { count }
}
