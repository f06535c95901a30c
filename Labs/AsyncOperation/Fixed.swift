import Foundation
import LabKit
import AsyncOperation

/// A reusable base for operations whose work ends later, on a callback, on any thread.
/// A subclass starts its work in `execute()` and ends it with `finish(_:)`, from any thread, as
/// often as it likes: only the first call counts. `completion` runs exactly once, with the output
/// or with nil when the operation was cancelled first.
class AsyncOperationFixed<Output>: Operation, @unchecked Sendable {
    private enum State {
        case ready, executing
        /// One finish(_:) call won; its completion is running. Not yet finished for anyone.
        case finishing
        case finished
    }

    // FIX: the state is only read and written under this lock, from whichever thread.
    private let lock = NSLock()
    private var state = State.ready
    private let completion: (Output?) -> Void

    init(completion: @escaping (Output?) -> Void) {
        self.completion = completion
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { state == .executing || state == .finishing } }
    override var isFinished: Bool { lock.withLock { state == .finished } }

    override func start() {
        // FIX: cancelled before it started: finish cleanly, without ever running the work. The
        // queue starts cancelled operations at once and waits for them to finish.
        if isCancelled {
            finish(nil)
            return
        }
        // FIX: every didChangeValue has its willChangeValue: Linux's Foundation listens only to
        // the did, but Apple's KVO requires the pair (Xcode would raise on an unpaired one).
        willChangeValue(forKey: "isExecuting")
        let began = lock.withLock { () -> Bool in
            guard state == .ready else { return false }
            state = .executing
            return true
        }
        didChangeValue(forKey: "isExecuting")
        guard began else { return }
        // cancel() may have come in between: it saw no executing operation, so finish here.
        if isCancelled {
            finish(nil)
            return
        }
        execute()
    }

    /// Subclasses start their asynchronous work here and call `finish(_:)` when it is done.
    func execute() {}

    override func cancel() {
        super.cancel()
        // FIX: a running operation stops at once. Its work may still call finish(_:) later;
        // that call will do nothing.
        if isExecuting { finish(nil) }
    }

    /// Ends the operation: delivers `output` (nil: cancelled), then tells the queue. Any thread;
    /// only the first call does anything.
    final func finish(_ output: Output?) {
        // FIX: finish exactly once. Claiming the finish is one step under the lock, so two
        // threads (the answer and a cancel) can never both get past it.
        let wasExecuting = lock.withLock { () -> Bool? in
            guard state == .ready || state == .executing else { return nil }
            defer { state = .finishing }
            return state == .executing
        }
        guard let wasExecuting else { return }
        // The result is delivered before isFinished turns true, so a dependent never starts
        // before it: the queue may read isFinished at any moment, from any thread.
        completion(output)
        willChangeValue(forKey: "isFinished")
        if wasExecuting { willChangeValue(forKey: "isExecuting") }
        lock.withLock { state = .finished }
        // FIX: on Linux these calls are what the queue listens to. didChangeValue(forKey:
        // "isFinished") is what marks the operation finished inside Foundation, starts its
        // dependents, runs its completionBlock and frees its slot in the queue.
        if wasExecuting { didChangeValue(forKey: "isExecuting") }
        didChangeValue(forKey: "isFinished")
    }
}

/// Fetches one endpoint. All the thread safety lives in the base class.
final class AsyncOperationFixedFetch: AsyncOperationFixed<String>, @unchecked Sendable {
    private let endpoint: Endpoint
    private let network: FakeNetwork

    init(_ endpoint: Endpoint, network: FakeNetwork, completion: @escaping @Sendable (String?) -> Void) {
        self.endpoint = endpoint
        self.network = network
        super.init(completion: completion)
    }

    override func execute() {
        network.send(endpoint) { answer in
            // Runs on the network's thread; a no-op if the operation was cancelled meanwhile.
            self.finish(answer)
        }
    }
}

struct AsyncOperationFixedFactory: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationFixedFetch(endpoint, network: network, completion: completion)
    }
}

extension AsyncOperationLab {
    public static var solutions: [LabVariant<FakeNetwork, AsyncOperationFactory>] {
        [LabVariant(.fixed) { AsyncOperationFixedFactory(network: $0) }]
    }
}
