// WRONG: an Atomic Int, loaded and then stored: each access is atomic, the update is still two steps, and TSan has nothing to report.
import Foundation
import LabKit
import AtomicProperty
import Synchronization

final class AtomicPropertyWrongAtomicLoadStore: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let stored = Atomic<Int>(0)

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    var finished: Int { stored.load(ordering: .sequentiallyConsistent) }

    func downloadFinished() {
        let next = progress.oneMore(than: stored.load(ordering: .sequentiallyConsistent))
        stored.store(next, ordering: .sequentiallyConsistent)
    }
}
