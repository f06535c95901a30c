import Foundation
import LabKit
import WorkerThread

/// EXERCISE: a copy of the broken variant. Make start() return only once the thread can take
/// work, let the idle thread sleep until work or a stop arrives, and make stop() return only once
/// the thread has ended. Check it with `make check LAB=worker-thread`.
/// Keep the class name and its three methods.
/// The source article's first worker: start() creates the thread and returns; the thread sets itself up,
/// then runs its run loop for a short while, again and again, forever. Here it at least checks a
/// stop flag between two runs, or it could never end at all.
final class WorkerThreadExercise: WorkerThreadController {
    private let environment: WorkerEnvironment
    private var thread: pthread_t?
    // TODO: fix this: written by the worker thread during its start-up, read by whoever sends work, with
    // nothing in between: no lock, and nobody waits for it to be set.
    private var runLoop: JobRunLoop?
    // TODO: fix this: written by stop() on the caller's thread, read by the worker thread: no synchronisation.
    private var stopRequested = false

    init(environment: WorkerEnvironment) {
        self.environment = environment
    }

    func start() {
        if thread != nil { return }
        // TODO: fix this: returns as soon as the thread exists, long before it can take any work.
        thread = startJoinableThread { self.threadMain() }
    }

    private func threadMain() {
        let loop = environment.setUpRunLoop()
        runLoop = loop
        // TODO: fix this: the loop has no source, so run(until:) returns at once instead of waiting: the thread
        // spins, waking up again and again with nothing to do (the source article's runUntilDate: does the
        // same). Polling is also the only way this thread can notice that it should stop.
        while !stopRequested {
            loop.run(until: Date(timeIntervalSinceNow: 0.01))
        }
        environment.cleanUp()
    }

    func send(_ job: @escaping () -> Void) {
        // TODO: fix this: until the thread has made its run loop, a job goes nowhere.
        runLoop?.perform(job)
    }

    func stop() {
        // TODO: fix this: returns at once. The thread ends whenever it next wakes up, runs its clean-up after
        // stop() has returned, and nobody ever joins it.
        stopRequested = true
        thread = nil
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeWorkerThreadExercise(_ environment: WorkerEnvironment) -> WorkerThreadController {
    WorkerThreadExercise(environment: environment)
}
