import Foundation
import LabKit
import AsyncOperation

// EXERCISE: a copy of the broken variant. Make the base class safe to use from any thread:
// every operation must finish exactly once (cancelled ones too), dependents must start only
// after their dependency finished, and the queue must drain. Check it with
// `make check LAB=async-operation`. Keep the factory's name and its method.

/// The blog's asynchronous operation base, ported as written: start() sets the state to
/// executing and calls main(); a subclass calls finish() when its asynchronous work is done.
/// The blog skips locking on purpose ("everything is on the main thread"). Its main-thread guard
/// is left out here: the operations do start on the main thread, but the answer does not.
class AsyncOperationExercise: Operation, @unchecked Sendable {
    enum State {
        case waiting, executing, finished
    }

    // TODO: fix this: no lock. start() writes the state on the queue's thread, finish() on the thread the
    // answer arrives on, and the queue reads isExecuting/isFinished on yet other threads.
    var state = State.waiting {
        willSet {
            switch (state, newValue) {
            case (.waiting, .executing):
                willChangeValue(forKey: "isExecuting")
            case (.waiting, .finished):
                willChangeValue(forKey: "isFinished")
            case (.executing, .finished):
                willChangeValue(forKey: "isExecuting")
                willChangeValue(forKey: "isFinished")
            default:
                fatalError("AsyncOperationExercise: no transition from \(state) to \(newValue)")
            }
        }
        didSet {
            switch (oldValue, state) {
            case (.waiting, .executing):
                didChangeValue(forKey: "isExecuting")
            case (.waiting, .finished):
                didChangeValue(forKey: "isFinished")
            case (.executing, .finished):
                didChangeValue(forKey: "isExecuting")
                didChangeValue(forKey: "isFinished")
            default:
                fatalError("AsyncOperationExercise: no transition from \(oldValue) to \(state)")
            }
        }
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { state == .executing }
    override var isFinished: Bool { state == .finished }

    override func start() {
        // TODO: fix this: a cancelled operation returns without ever becoming finished. The queue starts a
        // cancelled operation at once (dependencies or not) and waits for it to finish: forever.
        guard !isCancelled else { return }
        state = .executing
        main()
    }

    /// Subclasses call this when their asynchronous work is done.
    func finish() {
        state = .finished
    }
}

/// Fetches one endpoint: sends the request in main(), finishes when the answer arrives.
final class AsyncOperationExerciseFetch: AsyncOperationExercise, @unchecked Sendable {
    private let endpoint: Endpoint
    private let network: FakeNetwork
    private let completion: @Sendable (String?) -> Void

    init(_ endpoint: Endpoint, network: FakeNetwork, completion: @escaping @Sendable (String?) -> Void) {
        self.endpoint = endpoint
        self.network = network
        self.completion = completion
    }

    override func main() {
        network.send(endpoint) { answer in
            // Runs on the network's thread.
            self.completion(answer)
            self.finish()
        }
    }
}

struct AsyncOperationExerciseFactory: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationExerciseFetch(endpoint, network: network, completion: completion)
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeAsyncOperationExercise(_ network: FakeNetwork) -> AsyncOperationFactory {
    AsyncOperationExerciseFactory(network: network)
}
