// VALID: a concurrent queue: reads are plain sync blocks, and the whole update is one barrier block, which runs alone.
import Foundation
import LabKit
import AtomicProperty

final class AtomicPropertyValidConcurrentBarrier: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let queue = DispatchQueue(label: "atomic-property.finished", attributes: .concurrent)
    private var storedFinished = 0  // read in blocks on `queue`, written only in barrier blocks

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    var finished: Int { queue.sync { storedFinished } }

    func downloadFinished() {
        queue.sync(flags: .barrier) { storedFinished = progress.oneMore(than: storedFinished) }
    }
}
