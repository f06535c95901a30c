// VALID: every access, reads and writes, is a block on one serial queue, run with sync.
import Dispatch
import LabKit
import UncheckedSendable

final class UncheckedSendableValidSerialQueueSync: UncheckedSendableController, @unchecked Sendable {
    private let tally: UncheckedSendableTally
    private let queue = DispatchQueue(label: "likes.stats")
    private var stats = UncheckedSendableStats()  // only on `queue`

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) async {
        queue.sync { stats = tally.counting(like, in: stats) }
    }

    func statistics() async -> UncheckedSendableStats {
        queue.sync { stats }
    }
}
