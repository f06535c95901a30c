// WRONG: a queue of the right width, but a new one for every album: each album reads one photo
// at a time, and two albums imported one after the other read two at once.
import Foundation
import LabKit
import TooManyThreads

final class TooManyThreadsWrongQueuePerAlbum: TooManyThreadsController {
    private let gallery: TooManyThreadsGallery
    private let reader: TooManyThreadsCardReader
    private var albums: [OperationQueue] = []  // main thread only

    init(environment: TooManyThreadsEnvironment) {
        gallery = environment.gallery
        reader = environment.reader
    }

    func importPhotos(_ names: [String]) {
        let gallery = self.gallery, reader = self.reader
        let album = OperationQueue()
        album.maxConcurrentOperationCount = TooManyThreadsCardReader.filesAtOnce
        albums.append(album)
        for name in names {
            album.addOperation {
                let photo = reader.read(name)
                OperationQueue.main.addOperation { gallery.show(photo) }
            }
        }
    }
}
