import LabKit
import UncheckedSendable

/// The statistics belong to an actor: it runs one of its methods at a time, so no two tasks ever
/// touch `stats` at once. The compiler checks that: an actor is `Sendable` without a promise, and
/// outside code reaches `stats` only by `await`ing one of its methods.
actor UncheckedSendableFixed: UncheckedSendableController {  // FIX: an actor, not an @unchecked class.
    private let tally: UncheckedSendableTally
    private var stats = UncheckedSendableStats()  // isolated to the actor: one task at a time

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) {
        // FIX: the read, the slow step and the write run on the actor, with no `await` in between:
        // no other task can come in while this one counts.
        stats = tally.counting(like, in: stats)
    }

    func statistics() -> UncheckedSendableStats {
        stats  // FIX: the screen's read waits its turn on the actor too.
    }
}

extension UncheckedSendableLab {
    public static var solutions: [LabVariant<UncheckedSendableTally, UncheckedSendableController>] {
        [LabVariant(.fixed, name: "fixed-actor") { UncheckedSendableFixed(tally: $0) }]
    }
}
