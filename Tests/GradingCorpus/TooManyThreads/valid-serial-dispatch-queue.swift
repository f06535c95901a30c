// VALID: one serial dispatch queue for the card: its blocks run one at a time, on one thread
// at a time, in the order the photos were imported.
import Dispatch
import LabKit
import TooManyThreads

final class TooManyThreadsValidSerialDispatchQueue: TooManyThreadsController {
    private let gallery: TooManyThreadsGallery
    private let reader: TooManyThreadsCardReader
    private let card = DispatchQueue(label: "too-many-threads.corpus.card")

    init(environment: TooManyThreadsEnvironment) {
        gallery = environment.gallery
        reader = environment.reader
    }

    func importPhotos(_ names: [String]) {
        let gallery = self.gallery, reader = self.reader
        for name in names {
            card.async {
                let photo = reader.read(name)
                DispatchQueue.main.async { gallery.show(photo) }
            }
        }
    }
}
