// WRONG: every state change is locked and a cancelled operation finishes, but start() checks
// isCancelled in one step and becomes executing in another, and main() returns on isCancelled
// without finishing. A cancel() that lands between start()'s two steps sees an operation that is
// not executing yet and finishes nothing; main() then sees the cancel and returns: the operation
// never finishes, and its queue never drains.
import Foundation
import LabKit
import AsyncOperation

class AsyncOperationWrongCheckThenStartBase: Operation, @unchecked Sendable {
    enum State { case waiting, executing, finished }

    private let lock = NSLock()
    private var state = State.waiting  // under lock
    private var finishing = false  // under lock: one finish(), and only one, is under way

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { state == .executing } }
    override var isFinished: Bool { lock.withLock { state == .finished } }

    override func start() {
        if isCancelled { return finish() }
        // WRONG: the check above and this change are two steps: a cancel() in between sees a
        // waiting operation and does nothing, and main() then returns without finishing.
        lock.withLock { state = .executing }
        didChangeValue(forKey: "isExecuting")
        main()
    }

    override func cancel() {
        super.cancel()
        if isExecuting { finish() }
    }

    /// Delivers (`deliver`, at most once in all), then marks the operation finished.
    func finish() {
        let from = lock.withLock { () -> State? in
            guard !finishing, state != .finished else { return nil }
            finishing = true
            return state
        }
        guard let from else { return }
        deliver()
        lock.withLock { state = .finished }
        if from == .executing { didChangeValue(forKey: "isExecuting") }
        didChangeValue(forKey: "isFinished")
    }

    /// Subclasses: hand over the result (called once, before the operation is finished).
    func deliver() {}
}

final class AsyncOperationWrongCheckThenStartFetch: AsyncOperationWrongCheckThenStartBase, @unchecked Sendable {
    private let endpoint: Endpoint
    private let network: FakeNetwork
    private let completion: @Sendable (String?) -> Void
    private let answerLock = NSLock()
    private var answer: String?  // under answerLock

    init(_ endpoint: Endpoint, network: FakeNetwork, completion: @escaping @Sendable (String?) -> Void) {
        self.endpoint = endpoint
        self.network = network
        self.completion = completion
    }

    override func main() {
        guard !isCancelled else { return }
        network.send(endpoint) { answer in
            self.answerLock.withLock { self.answer = answer }
            self.finish()
        }
    }

    override func deliver() {
        completion(isCancelled ? nil : answerLock.withLock { answer })
    }
}

struct AsyncOperationWrongCheckThenStart: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationWrongCheckThenStartFetch(endpoint, network: network, completion: completion)
    }
}
