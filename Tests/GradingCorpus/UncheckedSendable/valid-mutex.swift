// VALID: a final class whose only mutable state is in a Mutex: Sendable, with no @unchecked.
import LabKit
import UncheckedSendable
import Synchronization

final class UncheckedSendableValidMutex: UncheckedSendableController, Sendable {
    private let tally: UncheckedSendableTally
    private let stats = Mutex(UncheckedSendableStats())

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) async {
        stats.withLock { stats in
            stats = tally.counting(like, in: stats)
        }
    }

    func statistics() async -> UncheckedSendableStats {
        stats.withLock { $0 }
    }
}
