// WRONG: prefetches are queued at high priority from the start. The tapped photo is quick now,
// but every guess jumps ahead of the thumbnails the user is looking at.
import Foundation
import LabKit
import PriorityInversion

final class PriorityInversionWrongPrefetchHighDecode: Operation, @unchecked Sendable {
    let photoName: String
    private let decoder: PriorityInversionDecoder
    private(set) var photo: DecodedPhoto?

    init(name: String, decoder: PriorityInversionDecoder) {
        self.photoName = name
        self.decoder = decoder
    }

    override func main() {
        guard !isCancelled else { return }
        photo = decoder.decode(photoName)
    }
}

final class PriorityInversionWrongPrefetchHigh: PriorityInversionController {
    private let screen: PriorityInversionScreen
    private let decoder: PriorityInversionDecoder
    private let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    private var prefetches: [String: PriorityInversionWrongPrefetchHighDecode] = [:]

    init(environment: PriorityInversionEnvironment) {
        screen = environment.screen
        decoder = environment.decoder
    }

    func showThumbnails(_ names: [String]) {
        for name in names { queue.addOperation(PriorityInversionWrongPrefetchHighDecode(name: name, decoder: decoder)) }
    }

    func prefetch(_ names: [String]) {
        for name in names {
            let decode = PriorityInversionWrongPrefetchHighDecode(name: name, decoder: decoder)
            decode.queuePriority = .high
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
        show.addDependency(decode)
        OperationQueue.main.addOperation(show)
    }
}
