// WRONG: everything of the reference fix but the source. With nothing to wait for, run() returns
// at once: the thread cleans up and ends right after start(), and every job sent to it is lost.
import Foundation
import LabKit
import WorkerThread

final class WorkerThreadWrongNoSource: WorkerThreadController {
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
        ready.lock()
        runLoop = loop
        ready.signal()
        ready.unlock()
        loop.run()
        environment.cleanUp()
    }

    func send(_ job: @escaping () -> Void) {
        runLoop?.perform(job)
    }

    func stop() {
        guard let thread, let runLoop else { return }
        runLoop.perform { JobRunLoop.current.stop() }
        pthread_join(thread, nil)
        self.thread = nil
        self.runLoop = nil
    }
}
