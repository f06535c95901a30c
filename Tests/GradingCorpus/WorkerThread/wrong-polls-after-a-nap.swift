// WRONG: the idle worker sleeps up to a second after each job, then polls every 5 ms for as long
// as it stays idle: polling, only later.
import Foundation
import LabKit
import WorkerThread

/// A worker with its own job queue. After a job the idle thread waits 1 s, then it polls
/// every 5 ms (200 wake-ups a second, for as long as it stays idle).
final class WorkerThreadWrongPollsAfterANap: WorkerThreadController {
    private let environment: WorkerEnvironment
    private var thread: pthread_t?  // caller's thread only
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []  // under condition
    private var stopping = false  // under condition
    private var ready = false  // under condition

    init(environment: WorkerEnvironment) {
        self.environment = environment
    }

    func start() {
        if thread != nil { return }
        thread = startJoinableThread { self.threadMain() }
        condition.lock()
        while !ready { condition.wait() }
        condition.unlock()
    }

    private func threadMain() {
        _ = environment.setUpRunLoop()
        condition.lock()
        ready = true
        condition.broadcast()
        var firstNap = true
        while true {
            while jobs.isEmpty && !stopping {
                _ = condition.wait(until: Date(timeIntervalSinceNow: firstNap ? 1.0 : 0.005))
                firstNap = false
            }
            firstNap = true
            if jobs.isEmpty && stopping { break }
            let batch = jobs
            jobs.removeAll()
            condition.unlock()
            for job in batch { job() }
            condition.lock()
        }
        condition.unlock()
        environment.cleanUp()
    }

    func send(_ job: @escaping () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.broadcast()
        condition.unlock()
    }

    func stop() {
        guard let thread else { return }
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        pthread_join(thread, nil)
        self.thread = nil
    }
}
