// WRONG: open() still leaves the tapped photo's decode at very low priority; instead the photo
// the story happens to tap (photo-2) is raised to very high when it is prefetched. Tap any other
// photo and it waits behind every thumbnail; and the guess jumps ahead of the thumbnails on screen.
import Foundation
import LabKit
import PriorityInversion

/// One decode, as an operation: the photo is ready once the operation finished.
final class PriorityInversionWrongTappedPhotoGuessedDecode: Operation, @unchecked Sendable {
    let photoName: String
    private let decoder: PriorityInversionDecoder
    private(set) var photo: DecodedPhoto?  // written in main(), read by operations that depend on this one

    init(name: String, decoder: PriorityInversionDecoder) {
        self.photoName = name
        self.decoder = decoder
    }

    override func main() {
        guard !isCancelled else { return }
        photo = decoder.decode(photoName)
    }
}

final class PriorityInversionWrongTappedPhotoGuessed: PriorityInversionController {
    private let screen: PriorityInversionScreen
    private let decoder: PriorityInversionDecoder
    private let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "photo decoding"
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    private var prefetches: [String: PriorityInversionWrongTappedPhotoGuessedDecode] = [:]  // main thread only

    init(environment: PriorityInversionEnvironment) {
        screen = environment.screen
        decoder = environment.decoder
    }

    func showThumbnails(_ names: [String]) {
        for name in names {
            queue.addOperation(PriorityInversionWrongTappedPhotoGuessedDecode(name: name, decoder: decoder))  // .normal
        }
    }

    func prefetch(_ names: [String]) {
        for name in names {
            let decode = PriorityInversionWrongTappedPhotoGuessedDecode(name: name, decoder: decoder)
            // "photo-2 is the one people open": prefetch it ahead of the thumbnails.
            decode.queuePriority = name == "photo-2" ? .veryHigh : .veryLow
            prefetches[name] = decode
            queue.addOperation(decode)
        }
    }

    func open(_ name: String) {
        guard let decode = prefetches[name] else { return }
        let show = BlockOperation { [screen] in
            if let photo = decode.photo { screen.show(photo) }
        }
        show.queuePriority = .veryHigh
        // Left as it was: the tapped photo's decode keeps the priority it was prefetched with.
        show.addDependency(decode)
        OperationQueue.main.addOperation(show)
    }
}
