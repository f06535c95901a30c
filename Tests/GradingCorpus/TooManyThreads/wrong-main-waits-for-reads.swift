// WRONG: the reads go one at a time on an operation queue, but importPhotos waits for the queue
// to finish before it shows the photos: the screen is frozen for the whole import.
import Foundation
import LabKit
import TooManyThreads

final class TooManyThreadsWrongMainWaitsForReads: TooManyThreadsController {
    private let gallery: TooManyThreadsGallery
    private let reader: TooManyThreadsCardReader

    init(environment: TooManyThreadsEnvironment) {
        gallery = environment.gallery
        reader = environment.reader
    }

    private let queue: OperationQueue = { let q = OperationQueue(); q.maxConcurrentOperationCount = 1; return q }()

    /// Reads run one at a time on the queue's threads (never on main)... and main waits for all
    /// of them before it shows anything: the screen is frozen for the whole import.
    func importPhotos(_ names: [String]) {
        let reader = self.reader
        final class TooManyThreadsWrongWaitBox: @unchecked Sendable { var photo: ImportedPhoto? }
        let boxes = names.map { _ in TooManyThreadsWrongWaitBox() }
        for (name, box) in zip(names, boxes) {
            queue.addOperation { box.photo = reader.read(name) }
        }
        queue.waitUntilAllOperationsAreFinished()
        for box in boxes { if let photo = box.photo { gallery.show(photo) } }
    }
}
