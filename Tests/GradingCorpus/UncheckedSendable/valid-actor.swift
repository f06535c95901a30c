// VALID: an actor, written the way many would: the state in separate properties, the screen's
// snapshot built from them. Every access is on the actor, so one task at a time.
import LabKit
import UncheckedSendable

actor UncheckedSendableValidActor: UncheckedSendableController {
    private let tally: UncheckedSendableTally
    private var stats = UncheckedSendableStats()
    private var likesRecorded = 0

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) {
        stats = tally.counting(like, in: stats)
        likesRecorded += 1
    }

    func statistics() -> UncheckedSendableStats {
        stats
    }
}
