// WRONG: a compare-exchange without the loop: when another download changed the figure meanwhile, the exchange fails and this download is simply not counted.
import Foundation
import LabKit
import AtomicProperty
import Synchronization

final class AtomicPropertyWrongCompareExchangeOnce: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let stored = Atomic<Int>(0)

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    var finished: Int { stored.load(ordering: .sequentiallyConsistent) }

    func downloadFinished() {
        let current = stored.load(ordering: .sequentiallyConsistent)
        let next = progress.oneMore(than: current)
        _ = stored.compareExchange(expected: current, desired: next, ordering: .sequentiallyConsistent)
    }
}
