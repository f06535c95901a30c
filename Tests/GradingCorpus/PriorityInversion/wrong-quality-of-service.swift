// WRONG: the decode gets the highest quality of service. That is a hint for the threads that
// run operations; the queue still picks which waiting operation starts next by queuePriority.
import Foundation
import LabKit
import PriorityInversion

final class PriorityInversionWrongQualityOfServiceDecode: Operation, @unchecked Sendable {
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

final class PriorityInversionWrongQualityOfService: PriorityInversionController {
    private let screen: PriorityInversionScreen
    private let decoder: PriorityInversionDecoder
    private let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    private var prefetches: [String: PriorityInversionWrongQualityOfServiceDecode] = [:]

    init(environment: PriorityInversionEnvironment) {
        screen = environment.screen
        decoder = environment.decoder
    }

    func showThumbnails(_ names: [String]) {
        for name in names { queue.addOperation(PriorityInversionWrongQualityOfServiceDecode(name: name, decoder: decoder)) }
    }

    func prefetch(_ names: [String]) {
        for name in names {
            let decode = PriorityInversionWrongQualityOfServiceDecode(name: name, decoder: decoder)
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
        decode.qualityOfService = .userInteractive
        OperationQueue.main.addOperation(show)
    }
}
