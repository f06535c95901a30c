// VALID: an NSLock held for the whole read-modify-write in one method; the property is read-only and its getter takes the same lock.
import Foundation
import LabKit
import AtomicProperty

final class AtomicPropertyValidNSLock: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let lock = NSLock()
    private var storedFinished = 0  // only touched with `lock` held

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    var finished: Int { lock.withLock { storedFinished } }

    func downloadFinished() {
        lock.withLock { storedFinished = progress.oneMore(than: storedFinished) }
    }
}
