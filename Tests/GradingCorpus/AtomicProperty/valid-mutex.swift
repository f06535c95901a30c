// VALID: the figure lives inside Swift 6's Mutex, and the update is one withLock block: read, work out, write.
import Foundation
import LabKit
import AtomicProperty
import Synchronization

final class AtomicPropertyValidMutex: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let stored = Mutex(0)

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    var finished: Int { stored.withLock { $0 } }

    func downloadFinished() {
        stored.withLock { $0 = progress.oneMore(than: $0) }
    }
}
