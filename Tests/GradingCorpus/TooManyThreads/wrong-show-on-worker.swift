// WRONG: the width is right (an operation queue of 1), but each operation shows its photo
// itself, on the queue's thread: the gallery is a view, main thread only.
import Foundation
import LabKit
import TooManyThreads

final class TooManyThreadsWrongShowOnWorker: TooManyThreadsController {
    private let gallery: TooManyThreadsGallery
    private let reader: TooManyThreadsCardReader
    private let cardQueue = OperationQueue()

    init(environment: TooManyThreadsEnvironment) {
        gallery = environment.gallery
        reader = environment.reader
        cardQueue.maxConcurrentOperationCount = TooManyThreadsCardReader.filesAtOnce
    }

    func importPhotos(_ names: [String]) {
        let gallery = self.gallery, reader = self.reader
        for name in names {
            cardQueue.addOperation { gallery.show(reader.read(name)) }
        }
    }
}
