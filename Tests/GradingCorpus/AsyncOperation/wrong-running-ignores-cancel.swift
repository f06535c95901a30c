// WRONG: locked state, a cancelled operation that is started finishes, one finish wins; but a
// running operation ignores cancel(): it waits for its answer, however long the request stalls,
// and the queue waits with it.
import Foundation
import LabKit
import AsyncOperation

/// Ignores cancel() of a running operation. Otherwise the reference-style fix: state behind an NSLock; cancelled-before-start finishes at once; the
/// first finish wins; deliver, then flip the state, then tell the queue.
class AsyncOperationWrongIgnoresCancelBase: Operation, @unchecked Sendable {
    enum State { case waiting, executing, finished }
    private let lock = NSLock()
    private var state = State.waiting
    private var claimed = false

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { state == .executing } }
    override var isFinished: Bool { lock.withLock { state == .finished } }

    override func start() {
        let run: Bool = lock.withLock {
            guard state == .waiting, !claimed, !isCancelled else { return false }
            state = .executing
            return true
        }
        if run {
            willChangeValue(forKey: "isExecuting")
            didChangeValue(forKey: "isExecuting")
            main()
        } else {
            finish(nil)
        }
    }

    // No cancel() override: a running operation simply runs until its answer arrives, and the
    // completion gets that answer even though the operation was cancelled.

    func deliver(_ output: String?) {}

    func finish(_ output: String?) {
        let won: Bool = lock.withLock {
            if claimed { return false }
            claimed = true
            return true
        }
        guard won else { return }
        deliver(output)
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        lock.withLock { state = .finished }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}

final class AsyncOperationWrongIgnoresCancelFetch: AsyncOperationWrongIgnoresCancelBase, @unchecked Sendable {
    private let endpoint: Endpoint
    private let network: FakeNetwork
    private let completion: @Sendable (String?) -> Void

    init(_ endpoint: Endpoint, network: FakeNetwork, completion: @escaping @Sendable (String?) -> Void) {
        self.endpoint = endpoint
        self.network = network
        self.completion = completion
    }

    override func main() {
        network.send(endpoint) { answer in self.finish(answer) }
    }

    override func deliver(_ output: String?) { completion(output) }
}

struct AsyncOperationWrongRunningIgnoresCancel: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationWrongIgnoresCancelFetch(endpoint, network: network, completion: completion)
    }
}
