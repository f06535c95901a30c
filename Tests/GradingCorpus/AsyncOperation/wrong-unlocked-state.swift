// WRONG: fixes the logic (a cancelled operation finishes, a finish counts once, the completion
// runs first) but keeps the state in plain properties with no lock: start() writes them on the
// queue's thread, the answer's thread writes them too, and the queue reads them from others.
import Foundation
import LabKit
import AsyncOperation

final class AsyncOperationWrongUnlockedFetch: Operation, @unchecked Sendable {
    private var executing = false
    private var finished = false
    private var done = false
    private let endpoint: Endpoint
    private let network: FakeNetwork
    private let completion: @Sendable (String?) -> Void

    init(_ endpoint: Endpoint, network: FakeNetwork, completion: @escaping @Sendable (String?) -> Void) {
        self.endpoint = endpoint
        self.network = network
        self.completion = completion
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { executing }
    override var isFinished: Bool { finished }

    override func start() {
        if isCancelled { return finish(nil) }
        executing = true
        didChangeValue(forKey: "isExecuting")
        network.send(endpoint) { answer in self.finish(answer) }
    }

    override func cancel() {
        super.cancel()
        if executing { finish(nil) }
    }

    private func finish(_ output: String?) {
        if done { return }
        done = true
        completion(output)
        let wasExecuting = executing
        executing = false
        finished = true
        if wasExecuting { didChangeValue(forKey: "isExecuting") }
        didChangeValue(forKey: "isFinished")
    }
}

struct AsyncOperationWrongUnlockedState: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationWrongUnlockedFetch(endpoint, network: network, completion: completion)
    }
}
