import Foundation
@_spi(LabAuthoring) import LabKit

/// A stand-in for a thread's run loop (RunLoop / CFRunLoop on Apple platforms): jobs posted from
/// any thread run, in order, on the thread that runs the loop.
///
/// Its own lock is real synchronisation, as inside a real run loop: a job sees what its sender
/// wrote before posting it. Everything a worker keeps around the loop is the variant's business.
public final class JobRunLoop: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var stopped = false

    fileprivate init() {}

    /// Any thread: queue `job` and wake the loop.
    public func perform(_ job: @escaping () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// The loop's thread: run jobs as they come, sleeping while there are none, until `stop()`.
    /// Jobs posted before the stop still run first. (CFRunLoopRun.)
    public func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            let batch = jobs
            jobs.removeAll()
            condition.unlock()
            if batch.isEmpty { return }  // stopped, and nothing left to do
            for job in batch { job() }
        }
    }

    /// The loop's thread: wait for jobs until `deadline` (or a stop), run what came, return.
    /// (runMode:beforeDate:.) Returning at the deadline with nothing done is an idle wake-up:
    /// the thread woke up, used the CPU, and went back to sleep for nothing. They are counted.
    public func run(until deadline: Date) {
        condition.lock()
        var timedOut = false
        while jobs.isEmpty && !stopped && !timedOut {
            timedOut = !condition.wait(until: deadline)
        }
        let batch = jobs
        jobs.removeAll()
        condition.unlock()
        if batch.isEmpty && timedOut { WorkerThreadLab.workerDid("worker.idle-wakeup") }
        for job in batch { job() }
    }

    /// Any thread: make `run()` return (after the jobs already posted). (CFRunLoopStop.)
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}

/// What the harness gives a worker: its thread's slow start-up and its clean-up.
public final class WorkerEnvironment: Sendable {
    public init() {}

    /// The worker thread's start-up: it loads what the thread needs (slow), then makes the
    /// thread's run loop. Call it on the worker thread, first thing.
    public func setUpRunLoop() -> JobRunLoop {
        // A correct start() waits for this very thread, so a scripted pause here must end by itself.
        Checkpoint.hit("worker.setup", pauseLimit: 0.2)
        return JobRunLoop()
    }

    /// The worker thread's clean-up: the last thing it does before it ends. It takes a while (it
    /// closes what the thread opened).
    public func cleanUp() {
        // A correct stop() waits for this very thread, so a scripted pause here must end by itself.
        Checkpoint.hit("worker.cleaning-up", pauseLimit: 0.2)
        WorkerThreadLab.workerDid("worker.cleanup")
    }
}

/// Starts a joinable POSIX thread running `body`. Like `Thread.detachNewThread`, except that the
/// thread is not detached: its creator must `pthread_join` it (which returns once the thread has
/// ended) or `pthread_detach` it. ThreadSanitizer reports a thread that is neither as a leak.
public func startJoinableThread(_ body: @escaping () -> Void) -> pthread_t {
    final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
    let argument = Unmanaged.passRetained(Body(body)).toOpaque()
    #if canImport(Glibc) || canImport(Musl)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    let status = pthread_create(&thread, nil, { argument in
        Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
        return nil
    }, argument)
    precondition(status == 0, "pthread_create failed: \(status)")
    #if canImport(Glibc) || canImport(Musl)
    return thread
    #else
    return thread!
    #endif
}

/// A worker's life as the scenario drives it: start it, send it jobs, stop it.
public protocol WorkerThreadController: AnyObject {
    /// Starts the worker thread. A job sent as soon as this returns must not be lost.
    func start()
    /// Runs `job` on the worker thread. Called from the main thread, after start().
    func send(_ job: @escaping () -> Void)
    /// Stops the worker thread. When this returns the thread has ended: its clean-up is done and
    /// nothing from it happens any more.
    func stop()
}

public enum WorkerThreadLab: LabScenario {
    public static let info = LabInfo(
        id: "worker-thread",
        title: "A long-lived worker thread that is never quite ready, never quite asleep, never quite gone",
        source: "seed 004 (a thread with a run loop, started and stopped cleanly)",
        bug: "start() returns before the thread can take work (the first job is lost); the idle thread wakes up every 10 ms to poll a stop flag; stop() returns at once and nobody waits for the thread to end",
        invariants: [
            "a job sent right after start() returns is not lost",
            "an idle worker does not wake up: 0 idle wake-ups over a quiet period",
            "every job sent before stop() has run when stop() returns",
            "when stop() returns the thread has finished its clean-up; nothing from it happens afterwards",
            "no thread is left unjoined (ThreadSanitizer: thread leak)",
        ],
        expectedDetectors: [.invariant, .tsan]
    )

    public static let variants: [LabVariant<WorkerEnvironment, WorkerThreadController>] = [
        LabVariant(.broken) { WorkerThreadBroken(environment: $0) },
    ]

    /// Records something the worker thread did; after stop() returned, it is a callback too many.
    static func workerDid(_ event: StaticString) {
        Checkpoint.hit(event)
        if Checkpoint.hits("worker.stop-returned") > 0 { Checkpoint.hit("worker.after-stop") }
    }

    public static func play(_ variant: LabVariant<WorkerEnvironment, WorkerThreadController>, in run: ScenarioRun) {
        let worker = variant.make(WorkerEnvironment())
        var sent = 0
        func sendJob() {
            sent += 1
            run.user("sends job \(sent)") { worker.send { WorkerThreadLab.workerDid("worker.job") } }
        }
        func jobsRun() -> Int { Checkpoint.hits("worker.job") }

        // 1. Start the worker and send it a job the moment start() returns.
        switch run.mode {
        case .scripted:
            // The new thread is held in its start-up until the job is sent. A start() that waits
            // until the thread is ready cannot return meanwhile: the hold then ends by itself.
            let startingUp = run.pause(at: "worker.setup")
            run.user("starts the worker", worker.start)
            startingUp.whilePaused(sendJob)
        case .stress:
            run.user("starts the worker", worker.start)
            sendJob()
        }
        var lost = 0
        if !run.waitUntil(timeout: 0.5, { jobsRun() >= 1 }) {
            lost = 1
            run.fail("the job sent right after start() returned never ran: it was lost")
        }

        // 2. A quiet period: an idle worker should sleep the whole time.
        let quiet = run.mode == .scripted ? 0.1 : 0.001 * Double(run.random.next(upperBound: UInt64(20)) + 1)
        let wakeUpsBefore = Checkpoint.hits("worker.idle-wakeup")
        run.spin(for: quiet)
        let wakeUps = Checkpoint.hits("worker.idle-wakeup") - wakeUpsBefore
        run.record("idle wake-ups", Double(wakeUps))
        run.expect(wakeUps == 0, "the idle worker woke up \(wakeUps) times in \(Int(quiet * 1000)) ms with nothing to do")

        // 3. More work, then stop.
        let more = run.mode == .scripted ? 1 : Int(run.random.next(upperBound: UInt64(4))) + 1
        for _ in 0..<more {
            sendJob()
            run.randomPause(upTo: 1)
        }
        // Scripted: the thread is held as its clean-up begins. A stop() that waits for the thread
        // to end cannot return meanwhile (the hold then ends by itself, after 0.2 s); one that
        // does not wait returns while the clean-up has not run, every time.
        let cleaningUp = run.pause(at: "worker.cleaning-up")
        run.user("stops the worker", worker.stop)
        Checkpoint.hit("worker.stop-returned")
        let cleanUps = Checkpoint.hits("worker.cleanup")
        run.expect(cleanUps == 1, "stop() returned before the worker thread had finished its clean-up")
        let notRun = sent - lost - jobsRun()
        run.expect(notRun <= 0, "stop() returned with \(notRun) job(s) sent before it still not run")
        cleaningUp.whilePaused(maxWait: 0.5) {}  // let a clean-up that stop() did not wait for go on

        // 4. After stop() returned, the worker is gone: nothing of it may happen any more.
        run.spin(for: run.mode == .scripted ? 0.05 : 0.002)
        let afterStop = Checkpoint.hits("worker.after-stop")
        run.expect(afterStop == 0, "the worker thread was still at work after stop() returned (\(afterStop) job(s), wake-up(s) or clean-up)")
    }
}
