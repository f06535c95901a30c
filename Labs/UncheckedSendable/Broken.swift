import LabKit

/// The app's like statistics, shared by every task that counts a like. The protocol asks for
/// `Sendable`, and the compiler refused this class ("stored property 'stats' of
/// 'Sendable'-conforming class is mutable"), so it was marked `@unchecked Sendable`.
// BUG: `@unchecked Sendable` only tells the compiler to stop checking. Nothing here stops two
// tasks from touching `stats` at the same time.
final class UncheckedSendableBroken: UncheckedSendableController, @unchecked Sendable {
    private let tally: UncheckedSendableTally
    private var stats = UncheckedSendableStats()

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) async {
        // BUG: every child task of the group runs this at once. Two tasks read the same old
        // statistics, each adds its like, and the second write wipes out the first: a lost like,
        // and a data race.
        stats = tally.counting(like, in: stats)
    }

    func statistics() async -> UncheckedSendableStats {
        stats  // BUG: read by the screen while the tasks are still writing it: a data race too.
    }
}
