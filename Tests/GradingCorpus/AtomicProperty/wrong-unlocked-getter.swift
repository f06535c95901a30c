// WRONG: the update is one sync block on the queue, but the getter reads the stored figure directly ("reading an Int is atomic anyway"): a read that nothing orders after the downloads' writes.
import Foundation
import LabKit
import AtomicProperty

final class AtomicPropertyWrongUnlockedGetter: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let queue = DispatchQueue(label: "atomic-property.finished")
    private var storedFinished = 0

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    var finished: Int { storedFinished }

    func downloadFinished() {
        queue.sync { storedFinished = progress.oneMore(than: storedFinished) }
    }
}
