// WRONG: a careful lock, a single finish, cancelled operations handled; but finish() only flips
// the flag and never calls didChangeValue(forKey: "isFinished"). With no key-value observing on
// Linux, that call is the queue's only news: dependents never start and the queue never drains.
import Foundation
import LabKit
import AsyncOperation

final class AsyncOperationWrongSilentFetch: Operation, @unchecked Sendable {
    private enum State { case waiting, executing, finished }
    private let lock = NSLock()
    private var state = State.waiting
    private var claimed = false
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
        lock.withLock { state = .executing }
        network.send(endpoint) { answer in self.finish(answer) }
    }

    override func cancel() {
        super.cancel()
        if isExecuting { finish(nil) }
    }

    private func finish(_ output: String?) {
        let first = lock.withLock { () -> Bool in
            guard !claimed else { return false }
            claimed = true
            return true
        }
        guard first else { return }
        completion(output)
        lock.withLock { state = .finished }  // the queue is never told
    }
}

struct AsyncOperationWrongNoFinishedNotification: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationWrongSilentFetch(endpoint, network: network, completion: completion)
    }
}
