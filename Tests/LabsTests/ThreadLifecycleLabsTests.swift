import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabGrading
import RaceLabHarness
import RaceLabReports
import TSanReports
import XCTest

#if RACELAB_SOLUTIONS
    import SolutionCatalog
#endif

/// The async-operation and worker-thread labs, each broken variant in a child process: caught
/// by the detectors its lesson promises, with messages that name what went wrong.
final class ThreadLifecycleLabsTests: XCTestCase {
    func brokenRun(_ id: String, seed: UInt64) throws -> RunVerdict {
        let lab = try XCTUnwrap(testLabs.lab(id))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 1, seed: seed)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        return try XCTUnwrap(outcome.runs.first)
    }

    func testAsyncOperationBrokenNeverDrainsAndSaysWhichOperationIsStuck() throws {
        let run = try brokenRun("async-operation", seed: 21)
        XCTAssertTrue(run.fired(.invariant), "the failure found before the hang reaches the parent")
        XCTAssertTrue(run.fired(.hang), "the queue never drains: the watchdog kills the child")
        XCTAssertTrue(
            run.failures.contains { $0.message.hasPrefix("thumbnail never finished (it had been cancelled)") },
            "\(run.failures)")
        let hang = try XCTUnwrap(run.detections.first { $0.detector == .hang })
        XCTAssertTrue(hang.summary.contains("main thread at queue.waiting-to-drain"), hang.summary)
        XCTAssertLessThan(
            run.elapsedSeconds, 60, "the lab's 3 s watchdog ends a hung run (its clock runs slower on a busy machine)")
        for report in run.reports {
            XCTAssertEqual(report.kind, .dataRace, report.text)
            let functions = report.accesses.flatMap(\.frames).map(\.demangled)
            XCTAssertTrue(
                functions.contains { $0.hasPrefix("AsyncOperationBroken.state") },
                "the race is on the blog's state: \(functions)")
        }
    }

    func testWorkerThreadBrokenLosesItsFirstJobWakesUpIdleAndIsNeverJoined() throws {
        let run = try brokenRun("worker-thread", seed: 22)
        let messages = run.failures.map(\.message)
        XCTAssertTrue(
            messages.contains("the job sent right after start() returned never ran: it was lost"), "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("the idle worker woke up") }, "\(messages)")
        XCTAssertTrue(
            messages.contains("stop() returned before the worker thread had finished its clean-up"), "\(messages)")
        // How many wake-ups are counted depends on scheduling; that there is one does not.
        XCTAssertGreaterThanOrEqual(
            run.metrics["idle wake-ups"] ?? 0, 1, "a loop with no source wakes up with nothing to do")
        XCTAssertTrue(
            run.reports.contains { $0.kind == .threadLeak },
            "a joinable thread nobody joined: \(run.reports.map(\.title))")
        XCTAssertTrue(run.reports.contains { $0.kind == .dataRace }, "the stop flag and the run loop reference race")
    }
}

/// worker-thread's stand-in keeps two rules of a real run loop: with no source it does not sleep,
/// and a stop outside a run is lost. The scenario's "stop at once" step must catch a stop called
/// from the caller's thread (it hangs: the watchdog) and a loop without a source (jobs lost).
final class WorkerThreadRunLoopRulesTests: XCTestCase {
    func testAStopFromTheCallersThreadRightAfterStartIsLostAndHangs() throws {
        // the corpus ships with them
        try LabsTestSupport.requireSolutions(try XCTUnwrap(testLabs.lab("worker-thread")))
        let started = Date()
        let result = try LabsTestSupport.runRacelab([
            "run", "worker-thread", "--variant", "wrong-stop-from-caller", "--mode", "scripted", "--runs", "1",
            "--seed", "23"
        ])
        XCTAssertEqual(result.status, 0, "expected: detected\n\(result.stdout)\(result.stderr)")
        XCTAssertTrue(
            result.stdout.contains("hang: no progress, killed by the watchdog"),
            "stop() joins a thread whose loop never got the stop:\n\(result.stdout)")
        XCTAssertTrue(
            result.stdout.contains("main thread at runloop.stop-lost"),
            "the hang shows where the stop went:\n\(result.stdout)")
        XCTAssertLessThan(
            Date().timeIntervalSince(started), 70,
            "the lab's 3 s watchdog ends a hung run (its clock runs slower on a busy machine)")
    }

    /// A worker thread's last moment lasts until stop() returned or the main thread waits for it:
    /// a stop() that returns on a signal sent at the end of the body, and detaches the thread,
    /// returns before the thread has ended in the very first iteration; joining fixes are never
    /// kept waiting.
    func testAStopThatDetachesAfterASignalReturnsBeforeTheThreadEnds() throws {
        try LabsTestSupport.requireSolutions(try XCTUnwrap(testLabs.lab("worker-thread")))
        for (variant, expect) in [("wrong-signal-then-detach", "DETECTED 1/1"), ("valid-semaphores", "CLEAN 1/1")] {
            let result = try LabsTestSupport.runRacelab([
                "run", "worker-thread", "--variant", variant, "--mode", "stress", "--runs", "1", "--iterations",
                variant.hasPrefix("wrong") ? "1" : "10", "--seed", "25"
            ])
            XCTAssertEqual(result.status, 0, "\(variant)\n\(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stdout.contains(expect), "\(variant): expected \(expect)\n\(result.stdout)")
            if variant.hasPrefix("wrong") {
                XCTAssertTrue(result.stdout.contains("still at work after stop() returned"), result.stdout)
            }
        }
    }

    func testALoopWithNoSourceEndsAtOnceAndLosesTheJobs() throws {
        try LabsTestSupport.requireSolutions(try XCTUnwrap(testLabs.lab("worker-thread")))
        let result = try LabsTestSupport.runRacelab([
            "run", "worker-thread", "--variant", "wrong-no-source", "--mode", "scripted", "--runs", "1", "--seed", "24"
        ])
        XCTAssertEqual(result.status, 0, "expected: detected\n\(result.stdout)\(result.stderr)")
        // The job is lost: seen at once, or (on a loaded machine, where the first wait can end
        // before the loop has) once stop() returned with it still not run.
        XCTAssertTrue(
            result.stdout.contains("the job sent right after start() returned never ran: it was lost")
                || result.stdout.contains("job(s) sent before it still not run"), result.stdout)
    }
}
