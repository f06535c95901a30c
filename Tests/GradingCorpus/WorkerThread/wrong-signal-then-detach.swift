// WRONG: stop() waits for a semaphore the thread signals at the end of its work, then detaches
// the thread: the thread has not ended when stop() returns (what its body held is let go of
// afterwards, on that thread), which is what a join would have waited for.
import Foundation
import LabKit
import WorkerThread

/// Semaphore for start; stop sent as a job; stop() waits for a "finished" semaphore the thread
/// signals after its clean-up, and detaches the thread instead of joining it.
final class WorkerThreadWrongSignalThenDetach: WorkerThreadController {
    private let environment: WorkerEnvironment
    private var thread: pthread_t?
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var runLoop: JobRunLoop?   // written before `started` is signalled, read after

    init(environment: WorkerEnvironment) { self.environment = environment }

    func start() {
        if thread != nil { return }
        thread = startJoinableThread { self.threadMain() }
        started.wait()
    }

    private func threadMain() {
        let loop = environment.setUpRunLoop()
        loop.addSource()
        runLoop = loop
        started.signal()
        loop.run()
        environment.cleanUp()
        finished.signal()
    }

    func send(_ job: @escaping () -> Void) { runLoop?.perform(job) }

    func stop() {
        guard let thread else { return }
        runLoop?.perform { JobRunLoop.current.stop() }
        finished.wait()
        pthread_detach(thread)
        self.thread = nil
    }
}
