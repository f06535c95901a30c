// WRONG: prefetches are queued at normal priority from the start. Equal priorities run in the
// order they came, so the tapped photo still waits behind every thumbnail queued before it.
import Foundation
import LabKit
import PriorityInversion

final class PriorityInversionWrongPrefetchNormalDecode: Operation, @unchecked Sendable {
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

final class PriorityInversionWrongPrefetchNormal: PriorityInversionController {
    private let screen: PriorityInversionScreen
    private let decoder: PriorityInversionDecoder
    private let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    private var prefetches: [String: PriorityInversionWrongPrefetchNormalDecode] = [:]

    init(environment: PriorityInversionEnvironment) {
        screen = environment.screen
        decoder = environment.decoder
    }

    func showThumbnails(_ names: [String]) {
        for name in names { queue.addOperation(PriorityInversionWrongPrefetchNormalDecode(name: name, decoder: decoder)) }
    }

    func prefetch(_ names: [String]) {
        for name in names {
            let decode = PriorityInversionWrongPrefetchNormalDecode(name: name, decoder: decoder)
            decode.queuePriority = .normal
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
