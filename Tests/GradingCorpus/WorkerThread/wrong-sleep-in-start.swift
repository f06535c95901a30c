// WRONG: start() sleeps 20 ms "to give the thread time to get ready" instead of waiting for it:
// a thread slower to start than that still loses the first job (and the run loop is still read
// with nothing ordering it after the thread's write).
import Foundation
import LabKit
import WorkerThread

final class WorkerThreadWrongSleepInStart: WorkerThreadController {
    private let environment: WorkerEnvironment
    private var runLoop: JobRunLoop?
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
            loop.run()
            self.environment.cleanUp()
        }
        usleep(20_000)
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
