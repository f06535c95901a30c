import Foundation
import LabKit
import WorkerThread

/// The source article's final worker: start() waits until the thread is ready, the thread's loop has a
/// source of its own and sleeps until work or a stop arrives, and stop() sends the stop to the
/// thread itself, then joins it.
final class WorkerThreadFixed: WorkerThreadController {
    private let environment: WorkerEnvironment
    /// Signalled by the worker thread once its run loop exists.
    private let ready = NSCondition()
    // FIX: written by the worker thread under `ready`; start() waits for it under `ready`, so
    // everything after start() sees it.
    private var runLoop: JobRunLoop?
    private var thread: pthread_t?  // the owner's thread only (start and stop)

    init(environment: WorkerEnvironment) {
        self.environment = environment
    }

    func start() {
        guard thread == nil else { return }
        ready.lock()
        thread = startJoinableThread { self.threadMain() }
        // FIX: return only once the thread can take work. The wait is in a loop that checks what it
        // waits for: a condition may wake up with no signal (NSCondition's documentation warns of
        // it), and a single wait(), as in the source article, would then return too early.
        while runLoop == nil { ready.wait() }
        ready.unlock()
    }

    private func threadMain() {
        let loop = environment.setUpRunLoop()
        // FIX: a source of the thread's own (it does nothing): without one, the loop has nothing
        // to wait for, and run() would return at once instead of sleeping.
        loop.addSource()
        ready.lock()
        runLoop = loop
        ready.signal()
        ready.unlock()
        // FIX: sleep until there is work or a stop; no timeout, so no idle wake-ups.
        loop.run()
        loop.removeSource()
        environment.cleanUp()
    }

    func send(_ job: @escaping () -> Void) {
        runLoop?.perform(job)
    }

    func stop() {
        guard let thread, let runLoop else { return }
        // FIX: the stop is a job for the worker thread, after the jobs already sent, so it runs
        // inside the loop's run. Called from here, stop() could come before the thread has begun
        // to run its loop (right after start(), say), and a stop outside a run is lost.
        runLoop.perform { JobRunLoop.current.stop() }
        // FIX: return only once the thread has ended, clean-up included (join semantics).
        pthread_join(thread, nil)
        self.thread = nil
        self.runLoop = nil
    }
}

extension WorkerThreadLab {
    public static var solutions: [LabVariant<WorkerEnvironment, WorkerThreadController>] {
        [LabVariant(.fixed) { WorkerThreadFixed(environment: $0) }]
    }
}
