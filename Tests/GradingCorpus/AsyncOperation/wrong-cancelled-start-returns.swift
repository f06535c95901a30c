// WRONG: every state change is locked now, but start() still returns without finishing when the
// operation was cancelled before it started: the queue waits for it to finish, forever, and its
// dependents never run.
import Foundation
import LabKit
import AsyncOperation

final class AsyncOperationWrongReturnsFetch: Operation, @unchecked Sendable {
    private enum State { case waiting, executing, finished }
    private let lock = NSLock()
    private var state = State.waiting
    private let endpoint: Endpoint
    private let network: FakeNetwork
    private let completion: @Sendable (String?) -> Void

    init(_ endpoint: Endpoint, network: FakeNetwork, completion: @escaping @Sendable (String?) -> Void) {
        self.endpoint = endpoint
        self.network = network
        self.completion = completion
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { state == .executing } }
    override var isFinished: Bool { lock.withLock { state == .finished } }

    override func start() {
        guard !isCancelled else { return }
        lock.withLock { state = .executing }
        didChangeValue(forKey: "isExecuting")
        network.send(endpoint) { answer in self.finish(answer) }
    }

    private func finish(_ output: String?) {
        let first = lock.withLock { () -> Bool in
            guard state == .executing else { return false }
            state = .finished
            return true
        }
        guard first else { return }
        completion(isCancelled ? nil : output)
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}

struct AsyncOperationWrongCancelledStartReturns: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationWrongReturnsFetch(endpoint, network: network, completion: completion)
    }
}
