// WRONG: start() waits for the thread and the loop sleeps until work comes; but stop() only
// stops the loop and detaches the thread ("no leak now"): it returns before the thread has run
// its clean-up, which then happens after stop() said the worker was gone.
import Foundation
import LabKit
import WorkerThread

final class WorkerThreadWrongDetachInStop: WorkerThreadController {
    private let environment: WorkerEnvironment
    private let ready = NSCondition()
    private var runLoop: JobRunLoop?
    private var thread: pthread_t?

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
        environment.cleanUp()
    }

    func send(_ job: @escaping () -> Void) {
        runLoop?.perform(job)
    }

    func stop() {
        guard let thread, let runLoop else { return }
        runLoop.perform { JobRunLoop.current.stop() }
        pthread_detach(thread)
        self.thread = nil
        self.runLoop = nil
    }
}
