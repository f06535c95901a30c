// WRONG: start() waits until the thread has made its run loop by spinning on the property itself,
// with no lock: the thread writes it and start() reads it with nothing ordering the two (a data
// race; the compiler may even keep the read out of the loop).
import Foundation
import LabKit
import WorkerThread

final class WorkerThreadWrongUnlockedReadyWait: WorkerThreadController {
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
        while runLoop == nil { usleep(100) }
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
