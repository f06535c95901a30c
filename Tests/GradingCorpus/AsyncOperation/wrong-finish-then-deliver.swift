// WRONG: locked state, finishes exactly once, cancelled operations finish; but finish() first
// tells the queue the operation is finished and only then runs the completion: in between, a
// dependent can already start, before the result it depends on was delivered.
import Foundation
import LabKit
import AsyncOperation

final class AsyncOperationWrongThenDeliverFetch: Operation, @unchecked Sendable {
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
        if isCancelled { return finish(nil) }
        let began = lock.withLock { () -> Bool in
            guard state == .waiting else { return false }
            state = .executing
            return true
        }
        guard began else { return }
        didChangeValue(forKey: "isExecuting")
        network.send(endpoint) { answer in self.finish(answer) }
    }

    override func cancel() {
        super.cancel()
        if isExecuting { finish(nil) }
    }

    private func finish(_ output: String?) {
        let from = lock.withLock { () -> State? in
            guard state != .finished else { return nil }
            defer { state = .finished }
            return state
        }
        guard let from else { return }
        if from == .executing { didChangeValue(forKey: "isExecuting") }
        didChangeValue(forKey: "isFinished")
        completion(output)
    }
}

struct AsyncOperationWrongFinishThenDeliver: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationWrongThenDeliverFetch(endpoint, network: network, completion: completion)
    }
}
