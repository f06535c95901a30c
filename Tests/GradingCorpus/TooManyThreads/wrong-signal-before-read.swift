// WRONG: a semaphore of 1, but each thread gives its turn back before it reads: the semaphore
// limits nothing, and every read runs at once.
import Dispatch
import Foundation
import LabKit
import TooManyThreads

final class TooManyThreadsWrongSignalBeforeRead: TooManyThreadsController {
    private let gallery: TooManyThreadsGallery
    private let reader: TooManyThreadsCardReader
    private let turn = DispatchSemaphore(value: TooManyThreadsCardReader.filesAtOnce)

    init(environment: TooManyThreadsEnvironment) {
        gallery = environment.gallery
        reader = environment.reader
    }

    func importPhotos(_ names: [String]) {
        let gallery = self.gallery, reader = self.reader, turn = self.turn
        for name in names {
            Thread.detachNewThread {
                turn.wait()
                turn.signal()
                let photo = reader.read(name)
                DispatchQueue.main.async { gallery.show(photo) }
            }
        }
    }
}
