// VALID: still a thread per photo, but each one waits on a semaphore of 1 before it reads and
// signals after: one read at a time. The waiting threads cost memory, not the card's time,
// which the lesson calls wasteful, not wrong.
import Dispatch
import Foundation
import LabKit
import TooManyThreads

final class TooManyThreadsValidSemaphoreThreads: TooManyThreadsController {
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
                let photo = reader.read(name)
                turn.signal()
                DispatchQueue.main.async { gallery.show(photo) }
            }
        }
    }
}
