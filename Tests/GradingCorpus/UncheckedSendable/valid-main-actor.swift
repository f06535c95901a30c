// VALID: the whole class on the main actor. Every access to the statistics runs on the main
// thread, one at a time; the tasks hop there to count (slower, but safe, and checked).
import LabKit
import UncheckedSendable

@MainActor
final class UncheckedSendableValidMainActor: UncheckedSendableController {
    private let tally: UncheckedSendableTally
    private var stats = UncheckedSendableStats()

    nonisolated init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) {
        stats = tally.counting(like, in: stats)
    }

    func statistics() -> UncheckedSendableStats {
        stats
    }
}
