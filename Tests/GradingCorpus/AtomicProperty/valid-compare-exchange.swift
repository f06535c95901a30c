// VALID: lock-free: an Atomic figure and a compare-exchange loop; when another download got in first, the update is worked out again from the newer figure.
import Foundation
import LabKit
import AtomicProperty
import Synchronization

final class AtomicPropertyValidCompareExchange: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let stored = Atomic<Int>(0)

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    var finished: Int { stored.load(ordering: .sequentiallyConsistent) }

    func downloadFinished() {
        var current = stored.load(ordering: .relaxed)
        while true {
            let next = progress.oneMore(than: current)
            let (exchanged, seen) = stored.compareExchange(expected: current, desired: next, ordering: .sequentiallyConsistent)
            if exchanged { return }
            current = seen
        }
    }
}
