import Foundation
import LabKit
import TooManyThreads

/// One queue for the card, as wide as the card reads well: every import is an operation on it,
/// and the queue starts the next read only when a slot is free. Photos waiting their turn hold
/// no thread.
final class TooManyThreadsFixed: TooManyThreadsController {
    private let gallery: TooManyThreadsGallery
    private let reader: TooManyThreadsCardReader
    private let cardQueue = OperationQueue()

    init(environment: TooManyThreadsEnvironment) {
        gallery = environment.gallery
        reader = environment.reader
        cardQueue.name = "too-many-threads.card"
        // FIX: the queue's width: at most this many reads at once, whatever the album's size.
        cardQueue.maxConcurrentOperationCount = TooManyThreadsCardReader.filesAtOnce
    }

    deinit { cardQueue.cancelAllOperations() }

    func importPhotos(_ names: [String]) {
        let gallery = self.gallery, reader = self.reader
        for name in names {
            // FIX: an operation waits in the queue, not on a thread of its own, until its turn.
            cardQueue.addOperation {
                let photo = reader.read(name)
                OperationQueue.main.addOperation { gallery.show(photo) }
            }
        }
    }
}

extension TooManyThreadsLab {
    public static var solutions: [LabVariant<TooManyThreadsEnvironment, TooManyThreadsController>] {
        [LabVariant(.fixed) { TooManyThreadsFixed(environment: $0) }]
    }
}
