// WRONG: the updates go to a serial queue, one at a time, so none is lost; but the screen reads
// the statistics straight from the property, outside the queue, while the queue writes them.
import Dispatch
import LabKit
import UncheckedSendable

final class UncheckedSendableWrongSerialQueueReadsOutside: UncheckedSendableController, @unchecked Sendable {
    private let tally: UncheckedSendableTally
    private let queue = DispatchQueue(label: "likes.stats")
    private var stats = UncheckedSendableStats()

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) async {
        queue.sync { stats = tally.counting(like, in: stats) }
    }

    func statistics() async -> UncheckedSendableStats {
        stats
    }
}
