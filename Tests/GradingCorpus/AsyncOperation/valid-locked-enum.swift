// VALID: the blog's state enum kept, but behind an NSLock: the transition is decided and made in
// one locked step (so only one finish wins), the change notifications are sent outside the lock,
// the completion runs before the operation says it finished, and start() finishes a cancelled
// operation instead of returning.
import Foundation
import LabKit
import AsyncOperation

class AsyncOperationValidLockedBase: Operation, @unchecked Sendable {
    enum State { case waiting, executing, finished }

    private let lock = NSLock()
    private var state = State.waiting  // under lock
    private var finishing = false  // under lock: one finish(), and only one, is under way

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { state == .executing } }
    override var isFinished: Bool { lock.withLock { state == .finished } }

    override func start() {
        let run = lock.withLock { () -> Bool in
            guard state == .waiting, !finishing, !isCancelled else { return false }
            state = .executing
            return true
        }
        guard run else { return finish() }
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

final class AsyncOperationValidLockedFetch: AsyncOperationValidLockedBase, @unchecked Sendable {
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
        network.send(endpoint) { answer in
            self.answerLock.withLock { self.answer = answer }
            self.finish()
        }
    }

    override func deliver() {
        completion(isCancelled ? nil : answerLock.withLock { answer })
    }
}

struct AsyncOperationValidLockedEnum: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationValidLockedFetch(endpoint, network: network, completion: completion)
    }
}
