// WRONG: a compare-and-swap loop that gives up after five tries and then writes its figure
// anyway: a thread that loses five rounds in a row (many downloads ending at once) overwrites the
// others' updates.
import Foundation
import LabKit
import AtomicProperty

/// Optimistic update: read, work out the new figure outside the lock, then write it only if
/// nobody changed the count meanwhile; retry a couple of times.
final class AtomicPropertyWrongBoundedRetry: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let lock = NSLock()
    private var storedFinished = 0  // touched only under `lock`

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    var finished: Int { lock.withLock { storedFinished } }

    func downloadFinished() {
        var seen = finished
        for attempt in 0..<5 {
            let next = progress.oneMore(than: seen)
            let done: Bool = lock.withLock {
                if storedFinished == seen || attempt == 4 { storedFinished = next; return true }
                seen = storedFinished
                return false
            }
            if done { return }
        }
    }
}
