import Dispatch
import Foundation
import LabKit
import Synchronization
import WorkerThread

/// The worker as its owner and its thread share it: the thread (set by start()) and its run loop
/// (set by the thread, once made).
private struct WorkerThreadState: Sendable {
    var thread: pthread_t?
    var runLoop: JobRunLoop?
}

/// The same fix in Swift 6 terms. The class is `Sendable`, so the compiler refuses a plain `var`
/// shared with the worker thread: the run loop is handed over inside a `Mutex`, and start() waits
/// on a semaphore that the thread signals once its loop is stored. The loop has a source, so it
/// sleeps while idle; stop() sends the stop to the thread itself and joins it.
final class WorkerThreadFixedSwift6: WorkerThreadController, Sendable {
    private let environment: WorkerEnvironment
    // FIX: the thread and its loop live behind a lock; nobody reads them without taking it.
    private let state = Mutex(WorkerThreadState())

    init(environment: WorkerEnvironment) {
        self.environment = environment
    }

    func start() {
        guard state.withLock({ $0.thread == nil }) else { return }
        let ready = DispatchSemaphore(value: 0)
        let thread = startJoinableThread {
            let loop = self.environment.setUpRunLoop()
            // FIX: a source of the thread's own: the loop sleeps until there is work or a stop.
            loop.addSource()
            self.state.withLock { $0.runLoop = loop }
            ready.signal()  // FIX: the loop is stored: start() may return now.
            loop.run()  // no time limit: no idle wake-ups
            loop.removeSource()
            self.environment.cleanUp()
        }
        state.withLock { $0.thread = thread }
        ready.wait()  // FIX: return only once the thread can take work.
    }

    func send(_ job: @escaping () -> Void) {
        state.withLock { $0.runLoop }?.perform(job)
    }

    func stop() {
        let (thread, runLoop) = state.withLock { state in
            defer { state = WorkerThreadState() }
            return (state.thread, state.runLoop)
        }
        guard let thread, let runLoop else { return }
        // FIX: the stop is a job for the worker thread, after the jobs already sent: it lands inside
        // the loop's run, even if the thread has not entered it yet.
        runLoop.perform { JobRunLoop.current.stop() }
        // FIX: return only once the thread has ended, clean-up included.
        pthread_join(thread, nil)
    }
}

extension WorkerThreadLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<WorkerEnvironment, WorkerThreadController>] {
        [LabVariant(.fixed, name: "fixed-mutex") { WorkerThreadFixedSwift6(environment: $0) }]
    }
}
