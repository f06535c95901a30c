import AsyncOperation
import Foundation
import LabKit
import Synchronization

/// The same operation in Swift 6 terms (this file is built in the Swift 6 language mode): its
/// one piece of changing state is inside a `Mutex`, and everything else is a constant of a
/// `Sendable` type, so nothing it holds can be touched without the lock.
///
/// Foundation declares `Operation` `@unchecked Sendable`, and Swift 6 makes every subclass say
/// so again. That promise is not checked by the compiler, here or anywhere: what makes it true
/// is that no stored property below can change outside the `Mutex`.
final class AsyncOperationSwift6Fetch: Operation, @unchecked Sendable {
    private enum State {
        case ready, executing
        /// One finish(_:) call won; its completion is running. Not yet finished for anyone.
        case finishing
        case finished
    }

    // FIX: the only mutable state, and it lives inside the lock: no path reaches it without one.
    private let state = Mutex(State.ready)
    private let endpoint: Endpoint
    private let network: FakeNetwork
    private let completion: @Sendable (String?) -> Void

    init(_ endpoint: Endpoint, network: FakeNetwork, completion: @escaping @Sendable (String?) -> Void) {
        self.endpoint = endpoint
        self.network = network
        self.completion = completion
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { state.withLock { $0 == .executing || $0 == .finishing } }
    override var isFinished: Bool { state.withLock { $0 == .finished } }

    override func start() {
        // FIX: cancelled before it started: finish cleanly, without ever sending the request.
        // The queue starts cancelled operations at once and waits for them to finish.
        if isCancelled {
            finish(nil)
            return
        }
        willChangeValue(forKey: "isExecuting")
        let began = state.withLock { state in
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
        // A @Sendable closure, checked by the compiler: it may take `self` along because the
        // class is Sendable, and it touches nothing but the lock-guarded finish(_:).
        network.send(endpoint) { answer in self.finish(answer) }
    }

    override func cancel() {
        super.cancel()
        // FIX: a running operation stops at once; its answer, if it still comes, changes nothing.
        if isExecuting { finish(nil) }
    }

    /// Delivers `output` (nil: cancelled), then tells the queue. Any thread; only the first call
    /// does anything.
    private func finish(_ output: String?) {
        // FIX: claiming the finish is one step inside the lock, so the answer and a cancel can
        // never both get past it: the completion runs exactly once.
        let wasExecuting = state.withLock { state -> Bool? in
            guard state == .ready || state == .executing else { return nil }
            defer { state = .finishing }
            return state == .executing
        }
        guard let wasExecuting else { return }
        // FIX: the result is delivered before isFinished turns true, and isFinished is read
        // inside the same lock: whoever sees it finished sees the result too.
        completion(output)
        willChangeValue(forKey: "isFinished")
        if wasExecuting { willChangeValue(forKey: "isExecuting") }
        state.withLock { $0 = .finished }
        if wasExecuting { didChangeValue(forKey: "isExecuting") }
        didChangeValue(forKey: "isFinished")  // on Linux, what tells the queue it may go on
    }
}

struct AsyncOperationSwift6Factory: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationSwift6Fetch(endpoint, network: network, completion: completion)
    }
}

extension AsyncOperationLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<FakeNetwork, AsyncOperationFactory>] {
        [LabVariant(.fixed, name: "fixed-mutex") { AsyncOperationSwift6Factory(network: $0) }]
    }
}
