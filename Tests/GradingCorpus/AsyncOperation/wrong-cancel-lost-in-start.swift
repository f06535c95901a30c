// WRONG: start() checks isCancelled and becomes executing in two steps, and cancel() finishes
// only an executing operation: a cancel between the two is lost, and the operation sends its
// request and waits for the answer, however long it takes.
import Foundation
import LabKit
import AsyncOperation

/// Locked state, first finish wins, cancel() finishes a *running* operation at once.
/// BUG kept on purpose: start() checks isCancelled and sets .executing in two separate steps,
/// and cancel() only finishes an operation that is already .executing. A cancel landing between
/// the two steps is lost: the operation runs its request and waits for the answer.
class AsyncOperationWrongCancelLostBase: Operation, @unchecked Sendable {
    enum State { case waiting, executing, finished }
    private let lock = NSLock()
    private var state = State.waiting

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.lock(); defer { lock.unlock() }; return state == .executing }
    override var isFinished: Bool { lock.lock(); defer { lock.unlock() }; return state == .finished }

    override func start() {
        if isCancelled {            // step 1: check
            finish(nil)
            return
        }
        lock.lock()                 // step 2: act (a separate step)
        guard state == .waiting else { lock.unlock(); return }
        willChangeValue(forKey: "isExecuting")
        state = .executing
        lock.unlock()
        didChangeValue(forKey: "isExecuting")
        main()
    }

    override func cancel() {
        super.cancel()
        lock.lock()
        let running = state == .executing
        lock.unlock()
        if running { finish(nil) }
    }

    private var claimed = false
    func deliver(_ answer: String?) {}
    /// First caller wins: runs the completion, then marks finished, then tells the queue.
    func finish(_ answer: String?) {
        lock.lock()
        if claimed { lock.unlock(); return }
        claimed = true
        lock.unlock()
        complete(answer)
        lock.lock()
        let wasExecuting = state == .executing
        if wasExecuting { willChangeValue(forKey: "isExecuting") }
        willChangeValue(forKey: "isFinished")
        state = .finished
        lock.unlock()
        if wasExecuting { didChangeValue(forKey: "isExecuting") }
        didChangeValue(forKey: "isFinished")
    }
    func complete(_ answer: String?) {}
}

final class AsyncOperationWrongCancelLostFetch: AsyncOperationWrongCancelLostBase, @unchecked Sendable {
    private let endpoint: Endpoint
    private let network: FakeNetwork
    private let completion: @Sendable (String?) -> Void

    init(_ endpoint: Endpoint, network: FakeNetwork, completion: @escaping @Sendable (String?) -> Void) {
        self.endpoint = endpoint
        self.network = network
        self.completion = completion
    }

    override func complete(_ answer: String?) { completion(answer) }

    override func main() {
        network.send(endpoint) { answer in
            self.finish(answer)
        }
    }
}

struct AsyncOperationWrongCancelLostInStart: AsyncOperationFactory {
    let network: FakeNetwork
    init(network: FakeNetwork) { self.network = network }
    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationWrongCancelLostFetch(endpoint, network: network, completion: completion)
    }
}
