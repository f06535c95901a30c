import Foundation
import LabKit
import PriorityInversion

/// One decode, as an operation: the photo is ready once the operation finished.
final class PriorityInversionFixedDecode: Operation, @unchecked Sendable {
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

/// The same browser, one queue, one decode at a time. When something urgent comes to depend on
/// a waiting operation, that operation is made as urgent as what waits for it: priority
/// inheritance, by hand (an operation queue does not do it for you).
final class PriorityInversionFixed: PriorityInversionController {
    private let screen: PriorityInversionScreen
    private let decoder: PriorityInversionDecoder
    private let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "photo decoding"
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    private var prefetches: [String: PriorityInversionFixedDecode] = [:]  // main thread only

    init(environment: PriorityInversionEnvironment) {
        screen = environment.screen
        decoder = environment.decoder
    }

    func showThumbnails(_ names: [String]) {
        for name in names {
            queue.addOperation(PriorityInversionFixedDecode(name: name, decoder: decoder))  // .normal
        }
    }

    func prefetch(_ names: [String]) {
        for name in names {
            let decode = PriorityInversionFixedDecode(name: name, decoder: decoder)
            decode.queuePriority = .veryLow  // still a guess: it must not hold up the thumbnails
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
        // FIX: the decode the urgent `show` waits for inherits its priority. A waiting operation
        // may change its priority; the queue starts it next, as soon as the decode running now ends.
        decode.queuePriority = .veryHigh
        OperationQueue.main.addOperation(show)
    }
}

extension PriorityInversionLab {
    public static var solutions: [LabVariant<PriorityInversionEnvironment, PriorityInversionController>] {
        [LabVariant(.fixed) { PriorityInversionFixed(environment: $0) }]
    }
}
