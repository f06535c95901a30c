// WRONG: every update holds the lock for its whole read-modify-write, so no like is lost; but the
// screen's read takes no lock ("it only reads"). It runs while tasks write: a data race.
import Foundation
import LabKit
import UncheckedSendable

final class UncheckedSendableWrongLockUpdatesOnly: UncheckedSendableController, @unchecked Sendable {
    private let tally: UncheckedSendableTally
    private let lock = NSLock()
    private var stats = UncheckedSendableStats()

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) async {
        lock.withLock { stats = tally.counting(like, in: stats) }
    }

    func statistics() async -> UncheckedSendableStats {
        stats
    }
}
