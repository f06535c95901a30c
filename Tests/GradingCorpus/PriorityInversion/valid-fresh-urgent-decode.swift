// VALID: the very-low prefetch is cancelled and an urgent decode of the same photo takes its
// place; the screen waits for that one.
import Foundation
import LabKit
import PriorityInversion

final class PriorityInversionValidFreshUrgentDecodeDecode: Operation, @unchecked Sendable {
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

final class PriorityInversionValidFreshUrgentDecode: PriorityInversionController {
    private let screen: PriorityInversionScreen
    private let decoder: PriorityInversionDecoder
    private let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    private var prefetches: [String: PriorityInversionValidFreshUrgentDecodeDecode] = [:]

    init(environment: PriorityInversionEnvironment) {
        screen = environment.screen
        decoder = environment.decoder
    }

    func showThumbnails(_ names: [String]) {
        for name in names { queue.addOperation(PriorityInversionValidFreshUrgentDecodeDecode(name: name, decoder: decoder)) }
    }

    func prefetch(_ names: [String]) {
        for name in names {
            let decode = PriorityInversionValidFreshUrgentDecodeDecode(name: name, decoder: decoder)
            decode.queuePriority = .veryLow
            prefetches[name] = decode
            queue.addOperation(decode)
        }
    }

    func open(_ name: String) {
        guard let decode = prefetches[name] else { return }
        decode.cancel()
        let urgent = PriorityInversionValidFreshUrgentDecodeDecode(name: name, decoder: decoder)
        urgent.queuePriority = .veryHigh
        let show = BlockOperation { [screen] in
            if let photo = urgent.photo { screen.show(photo) }
        }
        show.addDependency(urgent)
        queue.addOperation(urgent)
        OperationQueue.main.addOperation(show)
    }
}
