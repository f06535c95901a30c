import Foundation

/// An `OperationQueue` whose operations run on a dispatch queue of your choice. Foundation's
/// `underlyingQueue` does the same but does not keep that queue alive (it is `unowned(unsafe)`:
/// if the queue goes first, the operation queue uses freed memory), so an exercise, which is
/// memory-safe Swift, may not set it. This queue holds its dispatch queue for as long as it lives.
public final class DispatchBackedOperationQueue: OperationQueue, @unchecked Sendable {
    /// The queue every operation runs on.
    public let dispatchQueue: DispatchQueue

    public init(on queue: DispatchQueue) {
        dispatchQueue = queue
        super.init()
        underlyingQueue = queue
    }
}
