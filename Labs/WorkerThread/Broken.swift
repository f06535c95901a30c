import Foundation
import LabKit

/// The source article's first worker: start() creates the thread and returns; the thread sets itself up,
/// then runs its run loop for a short while, again and again, forever. Here it at least checks a
/// stop flag between two runs, or it could never end at all.
final class WorkerThreadBroken: WorkerThreadController {
    private let environment: WorkerEnvironment
    private var thread: pthread_t?
    // BUG: written by the worker thread during its start-up, read by whoever sends work, with
    // nothing in between: no lock, and nobody waits for it to be set.
    private var runLoop: JobRunLoop?
    // BUG: written by stop() on the caller's thread, read by the worker thread: no synchronisation.
    private var stopRequested = false

    init(environment: WorkerEnvironment) {
        self.environment = environment
    }

    func start() {
        if thread != nil { return }
        // BUG: returns as soon as the thread exists, long before it can take any work.
        thread = startJoinableThread { self.threadMain() }
    }

    private func threadMain() {
        let loop = environment.setUpRunLoop()
        runLoop = loop
        // BUG: the loop has no source, so run(until:) returns at once instead of waiting: the thread
        // spins, waking up again and again with nothing to do (the source article's runUntilDate: does the
        // same). Polling is also the only way this thread can notice that it should stop.
        while !stopRequested {
            loop.run(until: Date(timeIntervalSinceNow: 0.01))
        }
        environment.cleanUp()
    }

    func send(_ job: @escaping () -> Void) {
        // BUG: until the thread has made its run loop, a job goes nowhere.
        runLoop?.perform(job)
    }

    func stop() {
        // BUG: returns at once. The thread ends whenever it next wakes up, runs its clean-up after
        // stop() has returned, and nobody ever joins it.
        stopRequested = true
        thread = nil
    }
}
