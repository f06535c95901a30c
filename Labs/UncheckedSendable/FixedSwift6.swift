import LabKit
import UncheckedSendable
import Synchronization

/// A class that really is `Sendable`, with no `@unchecked`: its only mutable state lives inside a
/// `Mutex`, so the statistics can be reached only inside `withLock`. This file is built in the
/// Swift 6 language mode with every warning an error, and the compiler accepts the conformance
/// because every stored property is `Sendable` (a `let` of a Sendable type, a `Mutex`): it checks
/// what the broken class only promised.
final class UncheckedSendableFixedMutex: UncheckedSendableController, Sendable {  // FIX: Sendable, checked.
    private let tally: UncheckedSendableTally
    private let stats = Mutex(UncheckedSendableStats())  // FIX: the value is reachable only through withLock.

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) {
        // FIX: the read, the slow step and the write are one withLock block: a task that comes in
        // meanwhile waits for the lock, then counts from the new statistics.
        stats.withLock { $0 = tally.counting(like, in: $0) }
    }

    func statistics() -> UncheckedSendableStats {
        stats.withLock { $0 }  // FIX: the screen's read takes the lock too.
    }
}

extension UncheckedSendableLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<UncheckedSendableTally, UncheckedSendableController>] {
        [LabVariant(.fixed, name: "fixed-mutex") { UncheckedSendableFixedMutex(tally: $0) }]
    }
}
