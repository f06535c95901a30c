// WRONG: the reader-writer pattern on a concurrent queue (sync reads, barrier writes) around each accessor: the write is exclusive, but another download can still read the old figure before it.
import Foundation
import LabKit
import AtomicProperty

final class AtomicPropertyWrongBarrierSetter: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let queue = DispatchQueue(label: "atomic-property.finished", attributes: .concurrent)
    private var storedFinished = 0

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    var finished: Int {
        get { queue.sync { storedFinished } }
        set { queue.sync(flags: .barrier) { storedFinished = newValue } }
    }

    func downloadFinished() {
        let current = finished
        finished = progress.oneMore(than: current)
    }
}
