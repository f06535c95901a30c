// WRONG: start() and stop() are fixed (a condition to wait for the thread, a join), but the
// thread still naps 10 ms at a time and checks a (locked) stop flag in between: an idle worker
// keeps waking up for nothing.
import Foundation
import LabKit
import WorkerThread

final class WorkerThreadWrongKeepsPolling: WorkerThreadController {
    private let environment: WorkerEnvironment
    private let state = NSCondition()
    private var runLoop: JobRunLoop?  // under state
    private var stopRequested = false  // under state
    private var thread: pthread_t?

    init(environment: WorkerEnvironment) {
        self.environment = environment
    }

    func start() {
        guard thread == nil else { return }
        thread = startJoinableThread { self.threadMain() }
        state.lock()
        while runLoop == nil { state.wait() }
        state.unlock()
    }

    private func threadMain() {
        let loop = environment.setUpRunLoop()
        loop.addSource()
        state.lock()
        runLoop = loop
        state.signal()
        state.unlock()
        while !state.withLock({ stopRequested }) {
            loop.run(until: Date(timeIntervalSinceNow: 0.01))
        }
        environment.cleanUp()
    }

    func send(_ job: @escaping () -> Void) {
        state.withLock { runLoop }?.perform(job)
    }

    func stop() {
        guard let thread else { return }
        state.withLock { stopRequested = true }
        pthread_join(thread, nil)
        self.thread = nil
    }
}
