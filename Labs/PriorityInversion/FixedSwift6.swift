import Foundation
import LabKit
import PriorityInversion
import Synchronization

/// Where a decode leaves its photo for the operation that shows it: a `Mutex`, so the hand-over
/// is safe whatever thread runs either operation, and the class is `Sendable` with the
/// compiler's check (its one stored property is).
final class PriorityInversionPhotoSlot: Sendable {
    private let photo = Mutex<DecodedPhoto?>(nil)

    func store(_ decoded: DecodedPhoto) { photo.withLock { $0 = decoded } }
    func load() -> DecodedPhoto? { photo.withLock { $0 } }
}

/// The same browser in Swift 6 terms (this file is built in the Swift 6 language mode): one
/// queue, one decode at a time, and the same cure, priority inheritance. The controller is
/// `@MainActor`, so its bookkeeping is main-actor state; each decode is a plain block operation
/// whose `@Sendable` block the compiler checks, handing its photo over through a `Mutex`.
@MainActor
final class PriorityInversionFixedSwift6: PriorityInversionController {
    private struct Prefetch {
        let decode: Operation
        let slot: PriorityInversionPhotoSlot
    }

    private let screen: PriorityInversionScreen
    private let decoder: PriorityInversionDecoder
    private let queue: OperationQueue
    private var prefetches: [String: Prefetch] = [:]

    nonisolated init(environment: PriorityInversionEnvironment) {
        screen = environment.screen
        decoder = environment.decoder
        queue = OperationQueue()
        queue.name = "photo decoding"
        queue.maxConcurrentOperationCount = 1
    }

    // The harness calls these on the main thread; `assumeIsolated` checks that it is (and traps
    // if not) instead of trusting a comment.
    nonisolated func showThumbnails(_ names: [String]) {
        MainActor.assumeIsolated {
            for name in names { _ = enqueueDecode(name, priority: .normal) }
        }
    }

    nonisolated func prefetch(_ names: [String]) {
        MainActor.assumeIsolated {
            for name in names {
                // still a guess: it must not hold up the thumbnails
                prefetches[name] = enqueueDecode(name, priority: .veryLow)
            }
        }
    }

    nonisolated func open(_ name: String) {
        MainActor.assumeIsolated { showWhenDecoded(name) }
    }

    private func enqueueDecode(_ name: String, priority: Operation.QueuePriority) -> Prefetch {
        let slot = PriorityInversionPhotoSlot()
        let decoder = self.decoder
        let decode = BlockOperation { slot.store(decoder.decode(name)) }
        decode.queuePriority = priority
        queue.addOperation(decode)
        return Prefetch(decode: decode, slot: slot)
    }

    private func showWhenDecoded(_ name: String) {
        guard let prefetch = prefetches[name] else { return }
        let slot = prefetch.slot, screen = self.screen
        let show = BlockOperation {
            // On the main queue, after the decode finished (its dependency).
            if let photo = slot.load() { screen.show(photo) }
        }
        show.queuePriority = .veryHigh
        show.addDependency(prefetch.decode)
        // FIX: the decode the urgent `show` waits for inherits its priority, before the queue
        // picks its next operation: it starts as soon as the decode running now ends.
        prefetch.decode.queuePriority = .veryHigh
        OperationQueue.main.addOperation(show)
    }
}

extension PriorityInversionLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<PriorityInversionEnvironment, PriorityInversionController>] {
        [LabVariant(.fixed, name: "fixed-inherit-priority") { PriorityInversionFixedSwift6(environment: $0) }]
    }
}
