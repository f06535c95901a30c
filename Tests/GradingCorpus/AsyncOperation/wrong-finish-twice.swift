// WRONG: the state is locked and cancel() finishes a running operation at once; but finish()
// does not remember that it already ran, so when the answer of a cancelled operation arrives
// later, it finishes (and runs the completion) a second time.
import Foundation
import LabKit
import AsyncOperation

final class AsyncOperationWrongTwiceFetch: Operation, @unchecked Sendable {
    private let lock = NSLock()
    private var executing = false
    private var finished = false
    private let endpoint: Endpoint
    private let network: FakeNetwork
    private let completion: @Sendable (String?) -> Void

    init(_ endpoint: Endpoint, network: FakeNetwork, completion: @escaping @Sendable (String?) -> Void) {
        self.endpoint = endpoint
        self.network = network
        self.completion = completion
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { executing } }
    override var isFinished: Bool { lock.withLock { finished } }

    override func start() {
        if isCancelled { return finish(nil) }
        lock.withLock { executing = true }
        didChangeValue(forKey: "isExecuting")
        network.send(endpoint) { answer in self.finish(answer) }
    }

    override func cancel() {
        super.cancel()
        if isExecuting { finish(nil) }
    }

    private func finish(_ output: String?) {
        completion(output)
        lock.withLock {
            executing = false
            finished = true
        }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}

struct AsyncOperationWrongFinishTwice: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationWrongTwiceFetch(endpoint, network: network, completion: completion)
    }
}
