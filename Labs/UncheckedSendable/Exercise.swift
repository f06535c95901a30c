import LabKit
import UncheckedSendable

/// EXERCISE: this starts as a copy of the broken variant. Make the statistics safe when many
/// tasks count likes at once: no like may be lost, and no data race. The harness runs it with
/// `make check LAB=unchecked-sendable`. Keep the class name (you may make it an actor),
/// `recordLike(_:)` and `statistics()`; change anything else. Aim for a type whose safety the
/// compiler can check: no `@unchecked Sendable`, no `nonisolated(unsafe)`.
///
/// The app's like statistics, shared by every task that counts a like. The protocol asks for
/// `Sendable`, and the compiler refused this class ("stored property 'stats' of
/// 'Sendable'-conforming class is mutable"), so it was marked `@unchecked Sendable`.
// TODO: fix this: `@unchecked Sendable` only tells the compiler to stop checking. Nothing here stops two
// tasks from touching `stats` at the same time.
final class UncheckedSendableExercise: UncheckedSendableController, @unchecked Sendable {
    private let tally: UncheckedSendableTally
    private var stats = UncheckedSendableStats()

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) async {
        // TODO: fix this: every child task of the group runs this at once. Two tasks read the same old
        // statistics, each adds its like, and the second write wipes out the first: a lost like,
        // and a data race.
        stats = tally.counting(like, in: stats)
    }

    func statistics() async -> UncheckedSendableStats {
        stats  // TODO: fix this: it is read by the screen while the tasks are still writing it: a data race too.
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeUncheckedSendableExercise(_ tally: UncheckedSendableTally) -> UncheckedSendableController {
    UncheckedSendableExercise(tally: tally)
}
