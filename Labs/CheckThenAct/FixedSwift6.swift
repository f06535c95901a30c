import LabKit
import CheckThenAct
import Synchronization

/// The same fix in Swift 6 terms (this file is built in the Swift 6 language mode, with every
/// warning an error): the count lives inside a `Mutex`, so there is no way to touch it except
/// inside `withLock`. The class is `Sendable`, and the Swift 6 compiler accepts it because every
/// stored property is: it checks what `CheckThenActFixed` only promises in comments.
final class CheckThenActFixedMutex: CheckThenActController, Sendable {
    private let clerk: CheckThenActClerk
    private let count = Mutex(0)  // FIX: the value is reachable only through withLock.

    init(clerk: CheckThenActClerk) {
        self.clerk = clerk
    }

    func recordVisit() {
        // FIX: the read, the slow work and the write are one withLock block: nobody can come in
        // between, so there is nothing left to check.
        count.withLock { $0 = clerk.addOne(to: $0) }
    }

    var visits: Int { count.withLock { $0 } }
}

extension CheckThenActLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<CheckThenActClerk, CheckThenActController>] {
        [LabVariant(.fixed, name: "fixed-mutex") { CheckThenActFixedMutex(clerk: $0) }]
    }
}
