// VALID: two DispatchSemaphores: start() waits on one until the thread has made its run loop;
// the loop (with a do-nothing source) sleeps until work or a stop comes; stop() sends the stop to
// the thread and joins it.
import Dispatch
import Foundation
import LabKit
import WorkerThread

final class WorkerThreadValidSemaphores: WorkerThreadController {
    private let environment: WorkerEnvironment
    private let ready = DispatchSemaphore(value: 0)
    private var runLoop: JobRunLoop?  // set by the thread before it signals `ready`
    private var thread: pthread_t?

    init(environment: WorkerEnvironment) {
        self.environment = environment
    }

    func start() {
        guard thread == nil else { return }
        thread = startJoinableThread {
            let loop = self.environment.setUpRunLoop()
            loop.addSource()
            self.runLoop = loop
            self.ready.signal()
            loop.run()
            self.environment.cleanUp()
        }
        ready.wait()
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
