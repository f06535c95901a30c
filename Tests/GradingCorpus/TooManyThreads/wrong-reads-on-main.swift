// WRONG: one read at a time and every photo shown on the main thread, because every read runs
// on the main queue: the story's first bug back again. Each read blocks the main thread while
// the card works, so the screen freezes for the whole import.
import Foundation
import LabKit
import TooManyThreads

final class TooManyThreadsWrongReadsOnMain: TooManyThreadsController {
    private let gallery: TooManyThreadsGallery
    private let reader: TooManyThreadsCardReader

    init(environment: TooManyThreadsEnvironment) {
        gallery = environment.gallery
        reader = environment.reader
    }

    func importPhotos(_ names: [String]) {
        let gallery = self.gallery, reader = self.reader
        for name in names {
            DispatchQueue.main.async { gallery.show(reader.read(name)) }
        }
    }
}
