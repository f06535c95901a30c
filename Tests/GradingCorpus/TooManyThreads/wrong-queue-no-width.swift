// WRONG: an operation queue, but with its default width: the queue runs as many operations at
// once as the system likes (on a phone, many), so several reads hit the card together.
import Foundation
import LabKit
import TooManyThreads

final class TooManyThreadsWrongQueueNoWidth: TooManyThreadsController {
    private let gallery: TooManyThreadsGallery
    private let reader: TooManyThreadsCardReader
    private let cardQueue = OperationQueue()

    init(environment: TooManyThreadsEnvironment) {
        gallery = environment.gallery
        reader = environment.reader
    }

    func importPhotos(_ names: [String]) {
        let gallery = self.gallery, reader = self.reader
        for name in names {
            cardQueue.addOperation {
                let photo = reader.read(name)
                OperationQueue.main.addOperation { gallery.show(photo) }
            }
        }
    }
}
