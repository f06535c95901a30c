// WRONG: the worker keeps its own locked job list and waits on its own NSCondition, but with a
// 10 ms timeout: an idle worker wakes up a hundred times a second to look (polling, the source article's
// spinning run loop in slow motion).
import Foundation
import LabKit
import WorkerThread

/// Own job list, the thread naps on its own condition for 10 ms at a time (polls).
final class WorkerThreadWrongOwnQueueNaps: WorkerThreadController {
    private let environment: WorkerEnvironment
    private var thread: pthread_t?
    private let cond = NSCondition()
    private var jobs: [() -> Void] = []     // under cond
    private var stopRequested = false        // under cond

    init(environment: WorkerEnvironment) { self.environment = environment }

    func start() {
        if thread != nil { return }
        thread = startJoinableThread { self.threadMain() }
    }

    private func threadMain() {
        _ = environment.setUpRunLoop()
        while true {
            cond.lock()
            // wake up every 10 ms to look around, like the source article's run(until:)
            if jobs.isEmpty && !stopRequested { _ = cond.wait(until: Date(timeIntervalSinceNow: 0.01)) }
            let batch = jobs
            jobs.removeAll()
            let done = stopRequested && batch.isEmpty
            cond.unlock()
            for job in batch { job() }
            if done { break }
        }
        environment.cleanUp()
    }

    func send(_ job: @escaping () -> Void) {
        cond.withLock { jobs.append(job) }
    }

    func stop() {
        guard let thread else { return }
        cond.withLock { stopRequested = true; cond.signal() }
        pthread_join(thread, nil)
        self.thread = nil
    }
}
