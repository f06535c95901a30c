// VALID: the run loop is kept in a Synchronization.Mutex; start() waits for the thread by
// checking it under the lock with short sleeps (the thread, not start(), is what may be slow);
// the loop (with a do-nothing source) sleeps until work or a stop; stop() sends the stop to the
// thread and joins it.
import Foundation
import LabKit
import Synchronization
import WorkerThread

final class WorkerThreadValidMutexAndPollingStart: WorkerThreadController {
    private let environment: WorkerEnvironment
    private let runLoop = Mutex<JobRunLoop?>(nil)
    private var thread: pthread_t?  // the owner's thread only

    init(environment: WorkerEnvironment) {
        self.environment = environment
    }

    func start() {
        guard thread == nil else { return }
        thread = startJoinableThread {
            let loop = self.environment.setUpRunLoop()
            loop.addSource()
            self.runLoop.withLock { $0 = loop }
            loop.run()
            self.environment.cleanUp()
        }
        while runLoop.withLock({ $0 == nil }) { usleep(500) }
    }

    func send(_ job: @escaping () -> Void) {
        runLoop.withLock { $0 }?.perform(job)
    }

    func stop() {
        guard let thread, let loop = runLoop.withLock({ $0 }) else { return }
        loop.perform { JobRunLoop.current.stop() }
        pthread_join(thread, nil)
        self.thread = nil
    }
}
