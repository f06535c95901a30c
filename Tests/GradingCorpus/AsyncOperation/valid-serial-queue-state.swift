// VALID: the state lives on a private serial DispatchQueue (every read and write is a sync onto
// it); finish is claimed there once, the completion runs, then the operation says it finished;
// cancelled before start: it finishes at once; cancelled while running: it finishes then.
import Dispatch
import Foundation
import LabKit
import AsyncOperation

class AsyncOperationValidQueueBase: Operation, @unchecked Sendable {
    private enum State { case ready, executing, finishing, finished }
    private let stateQueue = DispatchQueue(label: "async-operation.state")
    private var state = State.ready  // on stateQueue only
    private let completion: @Sendable (String?) -> Void

    init(completion: @escaping @Sendable (String?) -> Void) {
        self.completion = completion
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { stateQueue.sync { state == .executing || state == .finishing } }
    override var isFinished: Bool { stateQueue.sync { state == .finished } }

    override func start() {
        if isCancelled { return finish(nil) }
        guard stateQueue.sync(execute: { () -> Bool in
            guard state == .ready else { return false }
            state = .executing
            return true
        }) else { return }
        didChangeValue(forKey: "isExecuting")
        if isCancelled { return finish(nil) }
        work()
    }

    func work() {}

    override func cancel() {
        super.cancel()
        if isExecuting { finish(nil) }
    }

    final func finish(_ output: String?) {
        guard let wasExecuting = stateQueue.sync(execute: { () -> Bool? in
            guard state == .ready || state == .executing else { return nil }
            defer { state = .finishing }
            return state == .executing
        }) else { return }
        completion(output)
        stateQueue.sync { state = .finished }
        if wasExecuting { didChangeValue(forKey: "isExecuting") }
        didChangeValue(forKey: "isFinished")
    }
}

final class AsyncOperationValidQueueFetch: AsyncOperationValidQueueBase, @unchecked Sendable {
    private let endpoint: Endpoint
    private let network: FakeNetwork

    init(_ endpoint: Endpoint, network: FakeNetwork, completion: @escaping @Sendable (String?) -> Void) {
        self.endpoint = endpoint
        self.network = network
        super.init(completion: completion)
    }

    override func work() {
        network.send(endpoint) { answer in self.finish(answer) }
    }
}

struct AsyncOperationValidSerialQueueState: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationValidQueueFetch(endpoint, network: network, completion: completion)
    }
}
