// WRONG: the lock guards the store only. The statistics are read, and the slow step runs, outside
// it: two tasks still count from the same old statistics, and the unlocked read races with the
// locked writes.
import Foundation
import LabKit
import UncheckedSendable

final class UncheckedSendableWrongLockWriteOnly: UncheckedSendableController, @unchecked Sendable {
    private let tally: UncheckedSendableTally
    private let lock = NSLock()
    private var stats = UncheckedSendableStats()

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) async {
        let next = tally.counting(like, in: stats)
        lock.withLock { stats = next }
    }

    func statistics() async -> UncheckedSendableStats {
        lock.withLock { stats }
    }
}
