// WRONG: swaps the queue for an NSLock, still one lock per accessor: the getter and the setter are each safe, the read-modify-write between them is not.
import Foundation
import LabKit
import AtomicProperty

final class AtomicPropertyWrongNSLockAccessors: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let lock = NSLock()
    private var storedFinished = 0

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    var finished: Int {
        get { lock.withLock { storedFinished } }
        set { lock.withLock { storedFinished = newValue } }
    }

    func downloadFinished() {
        finished = progress.oneMore(than: finished)
    }
}
