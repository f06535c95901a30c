// WRONG: everything of the reference fix, but stop() stops the loop from the caller's thread. When
// the worker has not begun to run its loop yet (a stop right after start()), the stop is lost:
// the thread then sleeps in its loop for ever, and stop(), joining it, never returns.
import Foundation
import LabKit
import WorkerThread

final class WorkerThreadWrongStopFromCaller: WorkerThreadController {
    private let environment: WorkerEnvironment
    /// Signalled by the worker thread once its run loop exists.
    private let ready = NSCondition()
    private var runLoop: JobRunLoop?
    private var thread: pthread_t?  // the owner's thread only (start and stop)

    init(environment: WorkerEnvironment) {
        self.environment = environment
    }

    func start() {
        guard thread == nil else { return }
        ready.lock()
        thread = startJoinableThread { self.threadMain() }
        while runLoop == nil { ready.wait() }
        ready.unlock()
    }

    private func threadMain() {
        let loop = environment.setUpRunLoop()
        loop.addSource()
        ready.lock()
        runLoop = loop
        ready.signal()
        ready.unlock()
        loop.run()
        loop.removeSource()
        environment.cleanUp()
    }

    func send(_ job: @escaping () -> Void) {
        runLoop?.perform(job)
    }

    func stop() {
        guard let thread, let runLoop else { return }
        runLoop.stop()
        pthread_join(thread, nil)
        self.thread = nil
        self.runLoop = nil
    }
}
