// VALID: the tapped photo's decode is raised to .high, not .veryHigh: enough, since it only has
// to beat the normal-priority thumbnails.
import Foundation
import LabKit
import PriorityInversion

final class PriorityInversionValidRaiseHighDecode: Operation, @unchecked Sendable {
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

final class PriorityInversionValidRaiseHigh: PriorityInversionController {
    private let screen: PriorityInversionScreen
    private let decoder: PriorityInversionDecoder
    private let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    private var prefetches: [String: PriorityInversionValidRaiseHighDecode] = [:]

    init(environment: PriorityInversionEnvironment) {
        screen = environment.screen
        decoder = environment.decoder
    }

    func showThumbnails(_ names: [String]) {
        for name in names { queue.addOperation(PriorityInversionValidRaiseHighDecode(name: name, decoder: decoder)) }
    }

    func prefetch(_ names: [String]) {
        for name in names {
            let decode = PriorityInversionValidRaiseHighDecode(name: name, decoder: decoder)
            decode.queuePriority = .veryLow
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
        decode.queuePriority = .high
        OperationQueue.main.addOperation(show)
    }
}
