import Foundation
import LabKit
import AtomicProperty

/// The same serial queue, held for the whole read-modify-write instead of for each half.
final class AtomicPropertyFixed: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let queue = DispatchQueue(label: "atomic-property.finished")
    private var storedFinished = 0  // touched only by blocks on `queue`

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    /// Read-only from outside: a public setter invites `x = x + 1` again.
    var finished: Int { queue.sync { storedFinished } }  // FIX: a sync read; no setter to misuse.

    func downloadFinished() {
        // FIX: one block does the read, the work and the write: the queue runs one block at a
        // time, so no other thread can read the old figure in between.
        queue.sync { storedFinished = progress.oneMore(than: storedFinished) }
    }
}

extension AtomicPropertyLab {
    public static var solutions: [LabVariant<AtomicPropertyProgress, AtomicPropertyController>] {
        [
            LabVariant(.fixed) { AtomicPropertyFixed(progress: $0) },
        ]
    }
}
