// WRONG: each call makes its own NSLock and locks it: every task holds a different lock, so none
// ever waits for another.
import Foundation
import LabKit
import UncheckedSendable

final class UncheckedSendableWrongLockPerCall: UncheckedSendableController, @unchecked Sendable {
    private let tally: UncheckedSendableTally
    private var stats = UncheckedSendableStats()

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) async {
        let lock = NSLock()
        lock.withLock { stats = tally.counting(like, in: stats) }
    }

    func statistics() async -> UncheckedSendableStats {
        let lock = NSLock()
        return lock.withLock { stats }
    }
}
