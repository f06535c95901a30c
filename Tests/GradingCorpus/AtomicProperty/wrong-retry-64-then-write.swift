// WRONG: a compare-and-swap loop that gives up after 64 lost rounds and writes its figure anyway:
// with enough downloads ending together (65 or more), updates are lost.
import Foundation
import LabKit
import AtomicProperty
import Synchronization

/// Compare-exchange loop, but it gives up after 64 failed rounds and writes anyway.
final class AtomicPropertyWrongRetry64ThenWrite: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let stored = Atomic<Int>(0)

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    var finished: Int { stored.load(ordering: .sequentiallyConsistent) }

    func downloadFinished() {
        var rounds = 0
        while true {
            let old = stored.load(ordering: .sequentiallyConsistent)
            let new = progress.oneMore(than: old)
            rounds += 1
            if rounds >= 64 { stored.store(new, ordering: .sequentiallyConsistent); return }
            if stored.compareExchange(expected: old, desired: new, ordering: .sequentiallyConsistent).exchanged { return }
        }
    }
}
