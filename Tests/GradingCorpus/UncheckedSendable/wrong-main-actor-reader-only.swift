// WRONG: the screen's read is put on the main actor, the updates are left as they were. The main
// actor orders the reads among themselves, not against the child tasks, which still count at once
// off the main thread.
import LabKit
import UncheckedSendable

final class UncheckedSendableWrongMainActorReaderOnly: UncheckedSendableController, @unchecked Sendable {
    private let tally: UncheckedSendableTally
    private var stats = UncheckedSendableStats()

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) async {
        stats = tally.counting(like, in: stats)
    }

    @MainActor
    func statistics() async -> UncheckedSendableStats {
        stats
    }
}
