import CRaceLabSupport
import Synchronization
import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

/// Scripted mode's core promise: the driver can hold a thread at a checkpoint while the main
/// thread acts. XCTest runs this on the main thread, as the driver requires.
final class CheckpointTests: XCTestCase {
    func testArmedCheckpointHoldsTheThreadUntilReleased() {
        XCTAssertTrue(Thread.isMainThread)
        Checkpoint.reset()
        let run = ScenarioRun(mode: .scripted, iteration: 1, seed: 1)
        let pause = run.pause(at: "test.step", hit: 2)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for _ in 0..<3 { Checkpoint.hit("test.step") }
            finished.signal()
        }
        var hitsSeenWhilePaused = -1
        pause.whilePaused {
            hitsSeenWhilePaused = Checkpoint.hits("test.step")
            XCTAssertEqual(finished.wait(timeout: .now() + 0.2), .timedOut, "the thread is held at hit 2")
        }
        XCTAssertEqual(hitsSeenWhilePaused, 2)
        XCTAssertEqual(finished.wait(timeout: .now() + 5), .success, "released, the thread goes on")
        XCTAssertEqual(Checkpoint.hits("test.step"), 3)
        XCTAssertTrue(run.notes.isEmpty)
    }

    func testUnreachedCheckpointIsNotedNotHung() {
        Checkpoint.reset()
        let run = ScenarioRun(mode: .scripted, iteration: 1, seed: 1)
        var acted = false
        run.pause(at: "never.reached").whilePaused(maxWait: 0.1) { acted = true }
        XCTAssertTrue(acted)
        XCTAssertEqual(run.notes.count, 1)
    }

    /// A pause whose arrival never comes ends when the app has gone quiet: after the work that
    /// might have arrived has ended, and long before its limit, however slow that work is.
    func testAnUnreachedPauseWaitsForTheWorkThenEndsOnceQuiet() throws {
        try XCTSkipUnless(ThreadHold.seesBlockedThreads, "'quiet' from the kernel's view of threads")
        Checkpoint.reset()
        rl_quiet_begin_story()  // as the driver does: work earlier tests left queued is not this story's
        let run = ScenarioRun(mode: .scripted, iteration: 1, seed: 1)
        let pause = run.pause(at: "never.reached")
        let workEnded = Atomic<Bool>(false)
        Thread.detachNewThread {
            let end = Date(timeIntervalSinceNow: 0.3)
            while Date() < end {}  // busy, as a slow sum on a loaded machine: not quiet
            workEnded.store(true, ordering: .sequentiallyConsistent)
        }
        var endedBeforeActing = false
        pause.whilePaused(maxWait: 60) { endedBeforeActing = workEnded.load(ordering: .sequentiallyConsistent) }
        XCTAssertTrue(endedBeforeActing, "the pause waited while the thread could still arrive")
        XCTAssertEqual(
            run.notes, ["checkpoint never.reached #1 was not reached before the app went quiet; acted anyway"])
    }

    /// Work sent to a queue while a story starts it late begins only once the story's moves are
    /// done (a settle inside them still finds the app quiet); a main thread that waits for that
    /// work with no time limit lets it begin at once.
    func testWorkSentWhileStartingLateBeginsAfterTheMoves() throws {
        try XCTSkipUnless(ThreadHold.seesBlockedThreads, "the late start needs the kernel's view of threads")
        rl_quiet_begin_story()
        let run = ScenarioRun(mode: .scripted, iteration: 1, seed: 1)
        let began = Atomic<Bool>(false)
        var beganDuringMoves = true
        var quietDuringMoves = false
        run.startingLate {
            DispatchQueue.global().async { began.store(true, ordering: .sequentiallyConsistent) }
            quietDuringMoves = run.settle(timeout: 60)
            beganDuringMoves = began.load(ordering: .sequentiallyConsistent)
        }
        XCTAssertFalse(beganDuringMoves, "the block began while the moves were still being made")
        XCTAssertTrue(quietDuringMoves, "a block waiting for its late start kept the app from going quiet")
        XCTAssertTrue(run.waitUntil(timeout: 60) { began.load(ordering: .sequentiallyConsistent) }, "it began after")

        let done = DispatchSemaphore(value: 0)
        run.startingLate {
            DispatchQueue.global().async { done.signal() }
            done.wait()  // no time limit: the late start gives way, or this test hangs
        }
    }

    #if os(Linux)
        /// A pause limit is on the main thread's own time: while busy threads, two for each CPU, keep
        /// the main thread waiting for a CPU much of the time (a loaded machine), the held thread
        /// goes on only once the main thread has had its 0.1 s to act. (On plain time it would go on
        /// after 0.1 s, of which the main thread had perhaps half.)
        func testAPauseLimitCountsOnlyTheMainThreadsOwnTime() {
            let hogging = Atomic<Bool>(true)
            for _ in 0..<(2 * ProcessInfo.processInfo.activeProcessorCount) {
                Thread.detachNewThread { while hogging.load(ordering: .relaxed) {} }
            }
            defer { hogging.store(false, ordering: .relaxed) }

            Checkpoint.reset()
            let run = ScenarioRun(mode: .scripted, iteration: 1, seed: 1)
            let pause = run.pause(at: "test.limited")
            let finished = Atomic<Bool>(false)
            let ownAtStart = ownNanosecondsOfThisThread()
            Thread.detachNewThread {
                Checkpoint.hit("test.limited", pauseLimit: 0.1)
                finished.store(true, ordering: .sequentiallyConsistent)
            }
            let end = Date(timeIntervalSinceNow: 60)
            while !finished.load(ordering: .sequentiallyConsistent) && Date() < end {}  // busy: runnable, not waiting
            XCTAssertTrue(finished.load(ordering: .sequentiallyConsistent), "the hold ends by itself")
            let ownSeconds = Double(ownNanosecondsOfThisThread() - ownAtStart) / 1e9
            XCTAssertGreaterThanOrEqual(ownSeconds, 0.099, "the main thread had its 0.1 s before the thread went on")
            pause.whilePaused(maxWait: 0.1) {}
        }
    #endif

    func testAPauseLimitLetsTheHeldThreadGoOnByItself() {
        Checkpoint.reset()
        let run = ScenarioRun(mode: .scripted, iteration: 1, seed: 1)
        let pause = run.pause(at: "test.limited")
        // The main thread is busy (as in a start() that waits for this very thread), so it cannot
        // release the pause: the limit must. Timed on the held thread, around the hold only: a
        // busy machine may start the thread late, which is not the hold.
        let finished = DispatchSemaphore(value: 0)
        let heldFor = HeldNanoseconds()
        Thread.detachNewThread {
            let start = DispatchTime.now().uptimeNanoseconds
            Checkpoint.hit("test.limited", pauseLimit: 0.1)
            heldFor.value.store(DispatchTime.now().uptimeNanoseconds - start, ordering: .sequentiallyConsistent)
            finished.signal()
        }
        XCTAssertEqual(finished.wait(timeout: .now() + 60), .success, "the hold ends by itself")
        let seconds = Double(heldFor.value.load(ordering: .sequentiallyConsistent)) / 1e9
        XCTAssertGreaterThanOrEqual(seconds, 0.1, "the thread was held")
        XCTAssertLessThan(seconds, 4, "held for about 0.1 s, not the default 5 s")
        var acted = false
        pause.whilePaused(maxWait: 0.1) { acted = true }
        XCTAssertTrue(acted)
        XCTAssertTrue(run.notes.isEmpty, "the checkpoint was reached, so nothing to note")
    }

    func testStressJitterIsRepeatablePerSeed() {
        var a = SeededRandom(seed: 7)
        var b = SeededRandom(seed: 7)
        var c = SeededRandom(seed: 8)
        let first = (0..<5).map { _ in a.next() }
        XCTAssertEqual(first, (0..<5).map { _ in b.next() })
        XCTAssertNotEqual(first, (0..<5).map { _ in c.next() })
        XCTAssertEqual(SeededRandom.hash(1, 2), SeededRandom.hash(1, 2))
        XCTAssertNotEqual(SeededRandom.hash(1, 2), SeededRandom.hash(2, 1))
    }
}

/// Stress mode's random preemption (Preemption.c): a lab thread is stopped at its
/// synchronisation points, where no checkpoint is, and only while it is on.
final class PreemptionTests: XCTestCase {
    func testALabThreadIsPreemptedAtItsAtomicsOnlyWhileOn() throws {
        try XCTSkipUnless(PlatformChecks.here.preemptionAndHolds, "this build has no preemption or holds")
        Checkpoint.reset()
        final class Steps: Sendable { let count = Atomic<Int>(0) }
        let steps = Steps()
        /// A thread that hits a checkpoint (so it is a lab thread), then only does atomic steps,
        /// for `seconds` or, given `until`, until that holds (capped at 30 s: a loaded machine
        /// gives the thread little time, so counts over a fixed time would say nothing).
        func busyLabThread(for seconds: Double, until: (@Sendable () -> Bool)? = nil) {
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                Checkpoint.hit("test.preempted")
                let end = rl_monotonic_ns() + Int64((until == nil ? seconds : 30) * 1e9)
                while rl_monotonic_ns() < end, !(until?() ?? false) {
                    for _ in 0..<100 { steps.count.add(1, ordering: .relaxed) }
                }
                done.signal()
            }
            done.wait()
        }
        let handledBefore = rl_preemption_signals_handled()
        busyLabThread(for: 0.1)
        XCTAssertEqual(rl_preemption_signals_handled(), handledBefore, "off: no signal")

        XCTAssertEqual(rl_preemption_start(7, 50, 100), 0)
        busyLabThread(for: 0, until: { rl_preemption_signals_handled() - handledBefore > 10 })
        rl_preemption_stop()
        let handled = rl_preemption_signals_handled() - handledBefore
        XCTAssertGreaterThan(
            handled, 10, "a busy lab thread is preempted again and again (\(handled) times in at most 30 s)")
        XCTAssertGreaterThanOrEqual(rl_preemption_signals_sent(), rl_preemption_signals_handled())

        let afterStop = rl_preemption_signals_handled()
        busyLabThread(for: 0.1)
        XCTAssertEqual(rl_preemption_signals_handled(), afterStop, "stopped: no more signals")
    }

    /// A lab thread that waits with no time limit is left alone, however much getting back into
    /// its wait costs after a signal (on a loaded machine, more than the allowance): signalled
    /// again and again, it never looked asleep, and a correct idle worker was taken for a poller.
    func testALabThreadAsleepInAWaitIsNotPreempted() throws {
        try XCTSkipUnless(PlatformChecks.here.preemptionAndHolds, "this build has no preemption or holds")
        Checkpoint.reset()
        final class Waiter: Sendable {
            let thread = Atomic<Int64>(0)
            let wake = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
        }
        let waiter = Waiter()
        rl_preemption_set_return_allowance_ns(0)  // every return into the wait counts as running
        defer { rl_preemption_set_return_allowance_ns(50_000) }
        XCTAssertEqual(rl_preemption_start(11, 50, 100), 0)
        defer { rl_preemption_stop() }
        Thread.detachNewThread {
            Checkpoint.hit("test.waits")  // a lab thread: one to preempt
            waiter.thread.store(rl_current_thread_id(), ordering: .relaxed)
            let end = rl_monotonic_ns() + 20_000_000
            while rl_monotonic_ns() < end {}  // runs a while, so it is seen running
            waiter.wake.wait()
            waiter.done.signal()
        }
        // Asleep in its wait: seen so at 20 looks in a row, 1 ms apart (a signal wakes it briefly).
        var asleepLooks = 0
        var cap = LabDeadline(seconds: 30)
        while asleepLooks < 20, !cap.hasPassed() {
            let thread = waiter.thread.load(ordering: .relaxed)
            asleepLooks = thread != 0 && rl_task_state_letter(thread) == CChar(UInt8(ascii: "S")) ? asleepLooks + 1 : 0
            usleep(1_000)
        }
        XCTAssertEqual(asleepLooks, 20, "the thread went to sleep in its wait")
        let handledBefore = rl_preemption_signals_handled()
        usleep(300_000)
        let handled = rl_preemption_signals_handled() - handledBefore
        waiter.wake.signal()
        waiter.done.wait()
        XCTAssertLessThanOrEqual(handled, 1, "a thread asleep in a wait was signalled \(handled) times in 0.3 s")
    }
}

private final class HeldNanoseconds: Sendable {
    let value = Atomic<UInt64>(0)
}

/// This thread's own time so far, in nanoseconds: plain time less what it has waited for a CPU
/// (the kernel's scheduler statistics). Only differences mean anything.
func ownNanosecondsOfThisThread() -> Int64 {
    var ran: Int64 = 0
    var waited: Int64 = 0
    _ = rl_thread_times(rl_current_thread_id(), &ran, &waited)
    return Int64(DispatchTime.now().uptimeNanoseconds) - waited
}
