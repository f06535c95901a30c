import Foundation
import LabKit
import TooManyThreads

/// EXERCISE: this starts as a copy of the broken variant. Read at most
/// `TooManyThreadsCardReader.filesAtOnce` photos from the card at once, however many albums are
/// imported, and still show every photo on the main thread when it is in. The harness runs it
/// with `make check LAB=too-many-threads`. Keep the class name and
/// `importPhotos(_:)`; change anything else.
///
/// The gallery reads every photo of the album on a thread of its own: nothing waits for
/// anything, and each photo appears (on the main thread) the moment it is in.
final class TooManyThreadsExercise: TooManyThreadsController {
    private let gallery: TooManyThreadsGallery
    private let reader: TooManyThreadsCardReader

    init(environment: TooManyThreadsEnvironment) {
        gallery = environment.gallery
        reader = environment.reader
    }

    func importPhotos(_ names: [String]) {
        let gallery = self.gallery, reader = self.reader
        for name in names {
            // TODO: fix this: a new thread for every photo. An album of 8 reads 8 files from the card at
            // once, one of 500 starts 500 threads: the card slows down for all of them.
            Thread.detachNewThread {
                let photo = reader.read(name)
                DispatchQueue.main.async { gallery.show(photo) }
            }
        }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeTooManyThreadsExercise(_ environment: TooManyThreadsEnvironment) -> TooManyThreadsController {
    TooManyThreadsExercise(environment: environment)
}
