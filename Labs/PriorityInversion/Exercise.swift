import Foundation
import LabKit
import PriorityInversion

/// One decode, as an operation: the photo is ready once the operation finished.
final class PriorityInversionExerciseDecode: Operation, @unchecked Sendable {
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

/// EXERCISE: this starts as a copy of the broken variant. Make the tapped photo appear at once:
/// after the tap, at most one other photo may start decoding before it is on screen, while
/// prefetches still wait for the thumbnails and the decoder still gets one photo at a time. The
/// harness runs it with `make check LAB=priority-inversion`. Keep the class name,
/// the three methods and `makePriorityInversionExercise`; change anything else.
///
/// The photo browser: every decode goes through one queue that runs one operation at a time
/// (the decoder has a single buffer). Thumbnails on screen are normal priority; guesses about
/// what the user opens next are very low, so they never hold up what the user is looking at.
final class PriorityInversionExercise: PriorityInversionController {
    private let screen: PriorityInversionScreen
    private let decoder: PriorityInversionDecoder
    private let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "photo decoding"
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    private var prefetches: [String: PriorityInversionExerciseDecode] = [:]  // main thread only

    init(environment: PriorityInversionEnvironment) {
        screen = environment.screen
        decoder = environment.decoder
    }

    func showThumbnails(_ names: [String]) {
        for name in names {
            queue.addOperation(PriorityInversionExerciseDecode(name: name, decoder: decoder))  // .normal
        }
    }

    func prefetch(_ names: [String]) {
        for name in names {
            let decode = PriorityInversionExerciseDecode(name: name, decoder: decoder)
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
        // TODO: fix this: priority inversion. The very-high-priority `show` waits for `decode`, which is still
        // very low: the queue starts every waiting normal-priority thumbnail (and any older prefetch)
        // first, while the user stares at an empty screen. A priority is not passed on to what an
        // operation depends on.
        show.addDependency(decode)
        OperationQueue.main.addOperation(show)
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makePriorityInversionExercise(_ environment: PriorityInversionEnvironment) -> PriorityInversionController {
    PriorityInversionExercise(environment: environment)
}
