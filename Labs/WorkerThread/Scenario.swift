import Foundation
@_spi(LabAuthoring) import LabKit

/// A stand-in for a thread's run loop (RunLoop / CFRunLoop on Apple platforms): jobs posted from
/// any thread run, in order, on the thread that runs the loop. It keeps the two rules of a real
/// run loop that source article 004 works around:
/// - **A loop with no source does not sleep.** `run()` returns at once and `run(until:)` returns
///   without waiting, so a thread that calls it again and again spins. (Core Foundation returns
///   `kCFRunLoopRunFinished` when the mode has no source.) A source of one's own, even one that
///   does nothing (`addSource()`), keeps the loop asleep until there is work.
/// - **A stop ends the run in progress, and only that one.** `stop()` on a loop that is not
///   running at that moment (its thread has not entered `run()` yet, or is between two
///   `run(until:)` calls) is lost: the next run starts afresh. (Core Foundation clears its stop
///   flag at the start of every run.) A stop sent as a job to the loop's own thread always lands
///   inside a run, which is why the source article stops the loop on its own thread.
///
/// Its own lock is real synchronisation, as inside a real run loop: a job sees what its sender
/// wrote before posting it. Everything a worker keeps around the loop is the variant's business.
public final class JobRunLoop: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var sources = 0
    private var running = false  // inside run() or run(until:)
    private var stopRequested = false  // for the run in progress only

    fileprivate init() {}

    /// The calling thread's loop, made on first use (CFRunLoopGetCurrent).
    public static var current: JobRunLoop {
        let storage = Thread.current.threadDictionary
        if let loop = storage[currentKey] as? JobRunLoop { return loop }
        let loop = JobRunLoop()
        storage[currentKey] = loop
        return loop
    }
    private static let currentKey = "racelab.JobRunLoop.current"

    /// A source that does nothing but keep the loop asleep while there is no work (the source article's
    /// do-nothing source; CFRunLoopAddSource). Any thread.
    public func addSource() { condition.withLock { sources += 1 } }

    /// Removes a source added by `addSource()` (CFRunLoopRemoveSource). Any thread.
    public func removeSource() { condition.withLock { sources = max(0, sources - 1) } }

    /// Any thread: queue `job` for the loop's thread and wake the loop (performSelector:onThread:).
    public func perform(_ job: @escaping () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// The loop's thread: run jobs as they come, sleeping while there are none, until `stop()`
    /// (CFRunLoopRun). Returns at once when the loop has no source and no job waiting.
    public func run() {
        // Where a stop from another thread can miss the run: the thread is about to run the loop.
        // A correct stop() may wait for this very thread, so a scripted pause here ends by itself.
        Checkpoint.hit("runloop.enter", pauseLimit: 0.05)
        condition.lock()
        running = true
        stopRequested = false
        while true {
            while jobs.isEmpty && !stopRequested && sources > 0 { condition.wait() }
            if jobs.isEmpty { break }  // stopped, or no source left: the run is over
            // Jobs that came before the stop was seen still run (as a real loop handles the
            // sources that woke it before it looks at its stop flag).
            let batch = jobs
            jobs.removeAll()
            condition.unlock()
            for job in batch { job() }
            condition.lock()
        }
        running = false
        condition.unlock()
    }

    /// The loop's thread: wait for a job until `deadline` (or a stop), run what came, return
    /// (runMode:beforeDate:). With no source it does not wait at all. Returning with nothing done
    /// is an idle wake-up: the thread woke up, used the CPU, and went back to sleep for nothing.
    /// They are counted. (A real loop with no source spins at full speed; this one naps 0.2 ms
    /// between two returns so that the harness beside it still gets the CPU.)
    public func run(until deadline: Date) {
        condition.lock()
        running = true
        stopRequested = false
        var timedOut = false
        while jobs.isEmpty && !stopRequested && sources > 0 && !timedOut {
            timedOut = !condition.wait(until: deadline)
        }
        let batch = jobs
        jobs.removeAll()
        let spun = batch.isEmpty && sources == 0
        condition.unlock()
        for job in batch { job() }
        condition.withLock { running = false }
        if batch.isEmpty && (timedOut || spun) { WorkerThreadLab.workerDid("worker.idle-wakeup") }
        if spun { usleep(200) }
    }

    /// Ends the run in progress (CFRunLoopStop): `run()` returns once the jobs already queued are
    /// done. Any thread, but a stop while the loop is not running is lost (counted).
    public func stop() {
        condition.lock()
        if running {
            stopRequested = true
            condition.broadcast()
        } else {
            Checkpoint.hit("runloop.stop-lost")
        }
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
        Checkpoint.hit("worker.setup", pauseLimit: 0.05)
        return JobRunLoop.current
    }

    /// The worker thread's clean-up: the last thing it does before it ends. It takes a while (it
    /// closes what the thread opened).
    public func cleanUp() {
        // A correct stop() waits for this very thread, so a scripted pause here must end by itself.
        Checkpoint.hit("worker.cleaning-up", pauseLimit: 0.05)
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
        let stopsBefore = Checkpoint.hits("worker.stop-returned")
        // (Optional on Linux, not on Darwin: the initializer takes either.)
        Unmanaged<Body>.fromOpaque(UnsafeMutableRawPointer(argument)!).takeRetainedValue().run()
        // The thread's last moment, after its body (whose captures were just let go of, here):
        // a stop() that joins the thread waits for it; one that returns on a signal the body sent
        // at its end, and detaches the thread, does not.
        WorkerThreadLab.lastMoment(stopsBefore: stopsBefore)
        WorkerThreadLab.workerDid("worker.thread-ended")
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
        source: "source article 004 (a thread with a run loop, started and stopped cleanly)",
        bug: "start() returns before the thread can take work (the first job is lost); the run loop has no source, so the idle thread spins, polling a stop flag; stop() returns at once and nobody waits for the thread to end",
        invariants: [
            "a job sent right after start() returns is not lost",
            "an idle worker sleeps until work comes: nothing wakes it by itself (no poll, sleep or timed wait), and its run loop never turns over idle",
            "every job sent before stop() has run when stop() returns",
            "when stop() returns the thread has finished its clean-up; nothing from it happens afterwards",
            "a stop() right after start() ends the worker too (a stop that misses the loop's run hangs: the watchdog)",
            "no thread is left unjoined (ThreadSanitizer: thread leak)",
        ],
        expectedDetectors: [.invariant, .tsan],
        // An iteration starts and joins two threads and stays quiet up to 10 ms: four times the
        // cost of most labs' iterations. The broken variant is caught in the first one.
        defaultIterations: [.scripted: 3, .stress: 60],
        watchdogSeconds: 3
    )

    public static let variants: [LabVariant<WorkerEnvironment, WorkerThreadController>] = [
        LabVariant(.broken) { WorkerThreadBroken(environment: $0) },
    ]

    /// A worker thread's last moment lasts until stop() has returned or the main thread waits in
    /// the kernel (a join, or any wait with no time limit): a stop() that returns before the
    /// thread has ended then returns first every time, and one that joins is never kept waiting.
    /// The cap, on the lab's own time, is for a thread that ends with no stop() at all. Where
    /// a waiting thread cannot be seen, a millisecond instead.
    static func lastMoment(stopsBefore: Int) {
        guard ThreadHold.seesBlockedThreads else {
            usleep(1_000)
            return
        }
        var mainWaits = ThreadHold.BlockedWatch()
        var cap = LabDeadline(seconds: 1)
        while Checkpoint.hits("worker.stop-returned") == stopsBefore,
              !mainWaits.isBlocked(thread: Int64(getpid())), !cap.hasPassed() {
            usleep(100)
        }
    }

    /// Records something the worker thread did; after stop() returned, it is a callback too many.
    static func workerDid(_ event: StaticString) {
        Checkpoint.hit(event)
        if Checkpoint.hits("worker.stop-returned") > 0 { Checkpoint.hit("worker.after-stop") }
    }

    /// How long (the lab's own time) an idle worker is watched before one that keeps waking itself
    /// is judged; far above any honest wait. Not a cap: one with no CPU turns of its own is waited for.
    static let idlePatience = 2.0

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
        // Lost: the app went quiet without running it, or the worker's loop went round idle
        // twice after it was sent (a loop that polls never goes quiet).
        var lost = 0
        let idleBefore = Checkpoint.hits("worker.idle-wakeup")
        run.waitUntilDoneOrQuiet { jobsRun() >= 1 || Checkpoint.hits("worker.idle-wakeup") - idleBefore >= 2 }
        if jobsRun() < 1 {
            lost = 1
            run.fail("the job sent right after start() returned never ran: it was lost")
        }

        // 2. Idle: with its job done, the worker must wait for the next one with nothing that
        // wakes it by itself. Asked of the kernel, not of a clock: the app is quiet once every
        // thread waits with no time limit, and a thread that keeps it busy is seen to get the CPU
        // turn after turn by itself (a run loop with no source, a sleep, a timed wait, a poll);
        // a correct worker the machine is slow to put to sleep gets no turns meanwhile.
        let wakeUpsBefore = Checkpoint.hits("worker.idle-wakeup")
        let idle = run.waitUntilDoneQuietOrSelfWaking(patience: idlePatience) { Checkpoint.hits("worker.idle-wakeup") > wakeUpsBefore }
        let wakeUps = Checkpoint.hits("worker.idle-wakeup") - wakeUpsBefore
        run.record("idle wake-ups", Double(wakeUps))
        run.expect(wakeUps == 0, "the idle worker woke up \(wakeUps) times with nothing to do before it went to sleep")
        switch idle {
        case .done, .quiet: break
        case .wakesItself(let thread, let turns):
            let how = turns.map { "got the CPU \($0) times by itself" } ?? "stayed busy"
            run.fail("the idle worker never went to sleep for good (thread \(thread) \(how) in \(Int(idlePatience)) s or more): a run loop with no source, a sleep, a timed wait or a poll in its loop wakes it by itself")
        case .stillBusy(let reason):
            run.fail("hang: \(reason)")
        }

        // 3. More work, then stop.
        let more = run.mode == .scripted ? 1 : Int(run.random.next(upperBound: UInt64(4))) + 1
        for _ in 0..<more {
            sendJob()
            run.randomPause(upTo: 1)
        }
        // Scripted: the thread is held as its clean-up begins. A stop() that waits for the thread
        // to end cannot return meanwhile (the hold then ends by itself, after 0.05 s); one that
        // does not wait returns while the clean-up has not run, every time.
        let cleaningUp = run.pause(at: "worker.cleaning-up")
        run.user("stops the worker", worker.stop)
        Checkpoint.hit("worker.stop-returned")
        let cleanUps = Checkpoint.hits("worker.cleanup")
        run.expect(cleanUps == 1, "stop() returned before the worker thread had finished its clean-up")
        let notRun = sent - lost - jobsRun()
        run.expect(notRun <= 0, "stop() returned with \(notRun) job(s) sent before it still not run")
        cleaningUp.whilePaused {}  // let a clean-up that stop() did not wait for go on

        // 4. After stop() returned, the worker is gone: nothing of it may happen any more, up to
        // the moment the app is quiet (a thread stop() did not wait for has then done its all).
        run.settle()
        let afterStop = Checkpoint.hits("worker.after-stop")
        run.expect(afterStop == 0, "the worker thread was still at work after stop() returned (\(afterStop) job(s), wake-up(s), clean-up or its own end): stop() must wait until the thread has ended (join it)")

        // 5. Another worker, stopped the moment start() returned: its thread may not be running
        // its loop yet. Scripted: it is held just before it runs the loop while stop() is called.
        // A stop sent to the thread waits in its queue and lands; a stop called on the loop from
        // here is lost, and a stop() that then waits for the thread waits for ever (the watchdog).
        let brief = variant.make(WorkerEnvironment())
        let cleanUpsBefore = Checkpoint.hits("worker.cleanup")
        // Armed before start(): armed after it, a fast thread was already in its loop (seen under load).
        let enteringLoop = run.pause(at: "runloop.enter", hit: Checkpoint.hits("runloop.enter") + 1)
        run.user("starts another worker", brief.start)
        switch run.mode {
        case .scripted:
            enteringLoop.whilePaused(maxWait: 0.2) { run.user("stops it at once", brief.stop) }
        case .stress:
            run.randomPause(upTo: 1)
            run.user("stops it at once", brief.stop)
        }
        run.expect(Checkpoint.hits("worker.cleanup") == cleanUpsBefore + 1,
                   "stop(), called right after start() returned, returned before that worker had finished its clean-up")
    }
}
