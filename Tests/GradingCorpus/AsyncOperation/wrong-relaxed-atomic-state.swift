// WRONG: the state is in relaxed atomics: no lock, so no data race on the state itself, but no
// order either. isFinished can read true on another thread before the completion's writes are
// visible there: a client that asks "finished?" and then reads the result races.
import Foundation
import LabKit
import AsyncOperation
import Synchronization

/// State kept in relaxed atomics: no lock, no data race for TSan to see, but no ordering either.
/// isFinished can read `true` on another thread without the completion's writes being visible.
class AsyncOperationWrongRelaxedBase: Operation, @unchecked Sendable {
    // 0 waiting, 1 executing, 2 finished
    private let state = Atomic<UInt8>(0)
    private let claimed = Atomic<Bool>(false)

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { state.load(ordering: .relaxed) == 1 }
    override var isFinished: Bool { state.load(ordering: .relaxed) == 2 }

    override func start() {
        if isCancelled { finish(nil); return }
        guard state.compareExchange(expected: 0, desired: 1, ordering: .relaxed).exchanged else { return }
        if isCancelled { finish(nil); return }
        willChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isExecuting")
        main()
    }

    override func cancel() {
        super.cancel()
        if isExecuting { finish(nil) }
    }

    func deliver(_ output: String?) {}

    func finish(_ output: String?) {
        guard claimed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        deliver(output)
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        state.store(2, ordering: .relaxed)
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}

final class AsyncOperationWrongRelaxedFetch: AsyncOperationWrongRelaxedBase, @unchecked Sendable {
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

struct AsyncOperationWrongRelaxedAtomicState: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationWrongRelaxedFetch(endpoint, network: network, completion: completion)
    }
}
