import Foundation
import LabKit
import WorkerThread

/// The seed's final worker: start() waits until the thread is ready, the thread sleeps until
/// work or a stop arrives, and stop() wakes it and joins it.
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
        // FIX: return only once the thread can take work.
        while runLoop == nil { ready.wait() }
        ready.unlock()
    }

    private func threadMain() {
        let loop = environment.setUpRunLoop()
        ready.lock()
        runLoop = loop
        ready.signal()
        ready.unlock()
        // FIX: sleep until there is work or a stop; no timeout, so no idle wake-ups.
        loop.run()
        environment.cleanUp()
    }

    func send(_ job: @escaping () -> Void) {
        runLoop?.perform(job)
    }

    func stop() {
        guard let thread, let runLoop else { return }
        // FIX: wake the sleeping loop; it runs the jobs already sent, then returns.
        runLoop.stop()
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
