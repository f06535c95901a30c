// VALID: two flags (executing, finished) and a "done" claim in one Synchronization.Mutex; the
// first finish (answer or cancel) claims it, delivers, then flips the flags and tells the queue;
// a cancelled operation that is started finishes at once without sending anything.
import Foundation
import LabKit
import AsyncOperation
import Synchronization

final class AsyncOperationValidMutexFetch: Operation, @unchecked Sendable {
    private struct Flags {
        var started = false
        var executing = false
        var claimed = false
        var finished = false
    }
    private let flags = Mutex(Flags())
    private let endpoint: Endpoint
    private let network: FakeNetwork
    private let completion: @Sendable (String?) -> Void

    init(_ endpoint: Endpoint, network: FakeNetwork, completion: @escaping @Sendable (String?) -> Void) {
        self.endpoint = endpoint
        self.network = network
        self.completion = completion
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { flags.withLock { $0.executing } }
    override var isFinished: Bool { flags.withLock { $0.finished } }

    override func start() {
        let begins = flags.withLock { flags -> Bool in
            guard !flags.started, !flags.claimed else { return false }
            flags.started = true
            if isCancelled { return false }
            flags.executing = true
            return true
        }
        guard begins else { return finish(nil) }
        didChangeValue(forKey: "isExecuting")
        if isCancelled { return finish(nil) }
        network.send(endpoint) { answer in self.finish(answer) }
    }

    override func cancel() {
        super.cancel()
        if isExecuting { finish(nil) }
    }

    private func finish(_ output: String?) {
        let wasExecuting = flags.withLock { flags -> Bool? in
            guard !flags.claimed else { return nil }
            flags.claimed = true
            return flags.executing
        }
        guard let wasExecuting else { return }
        completion(output)
        flags.withLock {
            $0.executing = false
            $0.finished = true
        }
        if wasExecuting { didChangeValue(forKey: "isExecuting") }
        didChangeValue(forKey: "isFinished")
    }
}

struct AsyncOperationValidMutexFlags: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        AsyncOperationValidMutexFetch(endpoint, network: network, completion: completion)
    }
}
