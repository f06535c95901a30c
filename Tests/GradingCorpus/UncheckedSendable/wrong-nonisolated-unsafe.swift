// WRONG: the class says Sendable without @unchecked, and the compiler's complaint about the
// mutable property is silenced on the property instead, with nonisolated(unsafe). Same promise,
// same race: nothing orders the tasks' accesses.
import LabKit
import UncheckedSendable

final class UncheckedSendableWrongNonisolatedUnsafe: UncheckedSendableController, Sendable {
    private let tally: UncheckedSendableTally
    nonisolated(unsafe) private var stats = UncheckedSendableStats()

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) async {
        stats = tally.counting(like, in: stats)
    }

    func statistics() async -> UncheckedSendableStats {
        stats
    }
}
