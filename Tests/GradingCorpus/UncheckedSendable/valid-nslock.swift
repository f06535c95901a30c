// VALID: still @unchecked Sendable, but now the promise is kept: one NSLock around every access
// to the statistics, the read as well as the read-modify-write.
import Foundation
import LabKit
import UncheckedSendable

final class UncheckedSendableValidNSLock: UncheckedSendableController, @unchecked Sendable {
    private let tally: UncheckedSendableTally
    private let lock = NSLock()
    private var stats = UncheckedSendableStats()  // only with `lock` held

    init(tally: UncheckedSendableTally) {
        self.tally = tally
    }

    func recordLike(_ like: UncheckedSendableLike) async {
        lock.lock()
        defer { lock.unlock() }
        stats = tally.counting(like, in: stats)
    }

    func statistics() async -> UncheckedSendableStats {
        lock.withLock { stats }
    }
}
