// VALID: the common "atomic property" pattern done right: a concurrent queue, sync reads, and the whole update as one async barrier block (the download does not wait; a later sync read comes after it).
import Foundation
import LabKit
import AtomicProperty

final class AtomicPropertyValidBarrierAsync: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let queue = DispatchQueue(label: "atomic-property.finished", attributes: .concurrent)
    private var storedFinished = 0  // read in blocks on `queue`, written only in barrier blocks

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    var finished: Int { queue.sync { storedFinished } }

    func downloadFinished() {
        queue.async(flags: .barrier) {
            self.storedFinished = self.progress.oneMore(than: self.storedFinished)
        }
    }
}
