// WRONG: the whole update is locked, but handed to a global queue so the visitor need not wait: a visit that has been recorded may not be in the count yet when someone reads it.
import Foundation
import LabKit
import CheckThenAct

final class CheckThenActWrongCountInBackground: CheckThenActController {
    private let clerk: CheckThenActClerk
    private let lock = NSLock()
    private var count = 0  // only touched with `lock` held

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        DispatchQueue.global().async {
            self.lock.withLock { self.count = self.clerk.addOne(to: self.count) }
        }
    }

    var visits: Int { lock.withLock { count } }
}
