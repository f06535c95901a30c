// VALID: start() does not wait; instead send() keeps jobs in a locked list until the thread has
// made its run loop, and the thread hands them to the loop, in order, the moment it exists. The
// loop (with a do-nothing source) sleeps until work or a stop; stop() sends the stop to the thread
// (or leaves it for the thread to send itself, if the loop is not made yet) and joins the thread.
import Foundation
import LabKit
import WorkerThread

final class WorkerThreadValidBufferUntilReady: WorkerThreadController {
    private let environment: WorkerEnvironment
    private let lock = NSLock()
    private var runLoop: JobRunLoop?  // under lock
    private var pending: [() -> Void] = []  // under lock
    private var stopRequested = false  // under lock
    private var thread: pthread_t?  // the owner's thread only

    init(environment: WorkerEnvironment) {
        self.environment = environment
    }

    func start() {
        guard thread == nil else { return }
        thread = startJoinableThread { self.threadMain() }
    }

    private func threadMain() {
        let loop = environment.setUpRunLoop()
        loop.addSource()
        lock.withLock {
            runLoop = loop
            for job in pending { loop.perform(job) }
            pending.removeAll()
            if stopRequested { loop.perform { loop.stop() } }
        }
        loop.run()
        environment.cleanUp()
    }

    func send(_ job: @escaping () -> Void) {
        lock.withLock {
            if let runLoop { runLoop.perform(job) } else { pending.append(job) }
        }
    }

    func stop() {
        guard let thread else { return }
        lock.withLock {
            stopRequested = true
            runLoop?.perform { JobRunLoop.current.stop() }
        }
        pthread_join(thread, nil)
        self.thread = nil
    }
}
