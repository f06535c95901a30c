import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabHarness
@testable import TSanReports

#if canImport(Glibc)
    import Glibc
#endif

/// Each way a run can end, and what its verdict says of it, word for word: the branches
/// VerdictTests does not reach (a child that could not join its group, one killed after a crash,
/// one that rejected its arguments, notes and interference...).
final class VerdictBranchTests: XCTestCase {
    let plan = ScenarioPlan(lab: "list-adder", variant: "exercise", mode: .scripted, iterations: 3, seed: 7)

    func verdict(_ child: ChildOutcome) -> RunVerdict {
        VerdictBuilder.verdict(plan: plan, kind: .exercise, child: child, reproduce: "r")
    }

    /// A child's outcome; its heartbeats announced every iteration its result claims.
    func child(
        _ ending: ChildOutcome.Ending, stderr: String = "", result: ScenarioOutcome? = nil, iteration: Int? = nil
    ) -> ChildOutcome {
        var outcome = ChildOutcome(
            ending: ending, stderr: stderr, results: result.map { [$0] } ?? [],
            lastProgress: iteration.map { ChildChannel.Progress(iteration: $0, checkpointHits: 1, threads: []) },
            elapsedSeconds: 2.5)
        if let result { outcome.announcedIterations = Set(0...result.iterationsRun) }
        return outcome
    }

    func clean() -> ScenarioOutcome { .cleanThreeIterations }

    func summaries(_ verdict: RunVerdict) -> [String] { verdict.detections.map(\.summary) }

    func testWarningsTheChildCountedAreATSanDetectionAtTheirIteration() {
        var result = clean()
        result.tsanReports = 2
        result.firstTSanIteration = 2
        result.firstDetectionSeconds = 0.5
        let caught = verdict(child(.exited(0), result: result, iteration: 3))
        XCTAssertEqual(
            caught.detections,
            [
                Detection(detector: .tsan, iteration: 2, seconds: 0.5, summary: "ThreadSanitizer reported 2 warning(s)")
            ])
        let unread = verdict(child(.exited(66), result: clean(), iteration: 3))
        XCTAssertEqual(
            unread.detections,
            [
                Detection(
                    detector: .tsan, iteration: 3, seconds: nil,
                    summary:
                        "ThreadSanitizer found a problem (it ended the child with status 66) but its report could not be read"
                )
            ])
    }

    /// An invariant's time is the result's first detection when nothing else came first.
    func testMoreThanOneInvariantFailureIsCountedAndTimed() {
        var result = clean()
        result.failures = [
            InvariantFailure(iteration: 2, message: "the total shows 7", file: "Scenario.swift", line: 9),
            InvariantFailure(iteration: 3, message: "the total shows 8", file: "Scenario.swift", line: 9)
        ]
        result.firstFailureIteration = 2
        result.firstDetectionSeconds = 1.25
        XCTAssertEqual(
            verdict(child(.exited(0), result: result)).detections,
            [
                Detection(
                    detector: .invariant, iteration: 2, seconds: 1.25,
                    summary: "the total shows 7 (Scenario.swift:9) (+1 more)")
            ])
        result.firstTSanIteration = 1  // TSan's first: its time, not the invariant's
        result.tsanReports = 1
        XCTAssertEqual(verdict(child(.exited(0), result: result)).detections.map(\.seconds), [1.25, nil])
    }

    /// A limit the child ran into is its crash, and the harness's kill for it is no interference.
    func testALimitReachedIsACrashAndItsKillIsNotInterference() {
        var limited = child(.signaled(SIGKILL), iteration: 1)
        limited.limitReached = "it used more than 1 GiB"
        let judged = verdict(limited)
        XCTAssertEqual(
            judged.detections,
            [
                Detection(detector: .crash, iteration: 1, seconds: 2.5, summary: "it used more than 1 GiB")
            ])
        XCTAssertNil(judged.interference)
        XCTAssertNil(judged.harnessError)
    }

    /// ThreadSanitizer's memory limit ends a child with TSan's exit status: the limit is the
    /// verdict, not a race.
    func testThreadSanitizersMemoryLimitIsTheLimitNotARace() {
        var limited = child(
            .exited(TSanEnvironment.exitCode),
            stderr: "==12==\(TSanEnvironment.memoryLimitLine) (1024Mb vs 1100Mb)\n==12==Process memory map follows:\n",
            iteration: 1)
        limited.limitReached = ChildLimits.memoryReason(endedBy: "ThreadSanitizer")
        XCTAssertEqual(summaries(verdict(limited)), [ChildLimits.memoryReason(endedBy: "ThreadSanitizer")])
    }

    func testASIGKILLNobodySentIsACrashAndInterference() {
        let killed = verdict(child(.signaled(SIGKILL)))
        XCTAssertEqual(summaries(killed), ["died on SIGKILL"])
        XCTAssertEqual(
            killed.interference,
            "the child was killed by a SIGKILL the harness did not send (the machine ran out of memory, or something else killed it)"
        )
        XCTAssertEqual(summaries(verdict(child(.signaled(15)))), ["died on signal 15"])
        // Why, when the log says; else the line that showed the crash.
        XCTAssertEqual(
            summaries(verdict(child(.signaled(SIGSEGV), stderr: "==1==ERROR: ThreadSanitizer: SEGV on address 0x0\n"))),
            ["died on SIGSEGV: a bad memory access (SIGSEGV)"])
        XCTAssertEqual(
            summaries(verdict(child(.signaled(SIGSEGV), stderr: "==1==ThreadSanitizer:DEADLYSIGNAL\n"))),
            ["died on SIGSEGV: ==1==ThreadSanitizer:DEADLYSIGNAL"])
    }

    /// A Swift runtime trap under TSan: its deadly-signal handler ends the child with TSan's exit
    /// status, but no race was reported: a crash, and no TSan detection.
    func testASwiftTrapThatTSanEndedIsACrashNotARace() {
        let trapped = child(
            .exited(TSanEnvironment.exitCode),
            stderr: "Fatal error: SWIFT TASK CONTINUATION MISUSE: f() tried to resume its continuation more than once\n"
                + "ThreadSanitizer:DEADLYSIGNAL\n==1==ERROR: ThreadSanitizer: ILL on unknown address 0x1\n",
            iteration: 1)
        XCTAssertEqual(verdict(trapped).detections.map(\.detector), [.crash])
        // The same trap after the result was sent (a late callback): still the crash.
        var late = trapped
        late.results = [clean()]
        late.announcedIterations = Set(0...3)
        XCTAssertEqual(verdict(late).detections.map(\.detector), [.crash], "\(verdict(late).detections)")
    }

    func testAChildThatCouldNotJoinItsGroupCouldNotStart() {
        let judged = verdict(child(.exited(125), stderr: ChildGroup.joinFailed + "\n"))
        XCTAssertEqual(judged.harnessProblem, .couldNotStart)
        XCTAssertEqual(judged.harnessError, ChildGroup.joinFailed + ": run it again")
        XCTAssertEqual(judged.detections, [])
        // Without the sandbox's line, 125 is the code's own exit status.
        XCTAssertEqual(summaries(verdict(child(.exited(125)))), ["exited with status 125 before finishing"])
    }

    func testACrashThatDidNotDieSaysWhatItShowed() {
        XCTAssertEqual(
            summaries(verdict(child(.killedAfterCrash))), ["crashed and did not exit (killed): crash marker on stderr"])
        XCTAssertEqual(
            summaries(verdict(child(.killedAfterCrash, stderr: "Fatal error: Index out of range\n"))),
            ["crashed and did not exit (killed): Index out of range"])
    }

    /// A hang the iteration watch found says so, with what the threads did at the kill.
    func testAHangSaysWhyAndWhatTheThreadsDid() {
        var hung = child(.killedAfterStall, iteration: 4)
        hung.stallReason = "iteration 4 went on for 60 s without ending: the story never finished"
        hung.threadsAtKill = "main thread in futex_do_wait; no other thread"
        let judged = verdict(hung)
        XCTAssertEqual(
            judged.detections,
            [
                Detection(
                    detector: .hang, iteration: 4, seconds: 2.5,
                    summary:
                        "iteration 4 went on for 60 s without ending: the story never finished, killed by the watchdog; "
                        + "no checkpoint was ever reached; at the kill: main thread in futex_do_wait; no other thread")
            ])
        XCTAssertEqual(judged.hangPositions, [])
    }

    func testRunsThatNeverStartedCannotBeJudged() {
        let never = verdict(child(.killedBeforeStart))
        XCTAssertEqual(never.harnessProblem, .neverStarted)
        XCTAssertEqual(
            never.harnessError,
            "the child sent no sign of life for a minute of its own time and was killed before any lab code ran"
                + " (the machine is short of memory or disk, or the harness is broken): run it again")
        let failed = verdict(child(.failedToStart("/x/racelab-child: No such file or directory")))
        XCTAssertEqual(failed.harnessProblem, .couldNotStart)
        XCTAssertEqual(
            failed.harnessError, "could not start the child process: /x/racelab-child: No such file or directory")
        // A result without TSan does not say more than that it never started.
        var result = clean()
        result.tsanEnabled = false
        XCTAssertEqual(verdict(child(.killedBeforeStart, result: result)).harnessProblem, .neverStarted)
    }

    func testExitStatusesSayWhatTheChildDid() {
        let rejected = verdict(child(.exited(2), stderr: "racelab-child: bad\nusage: racelab-child --seed N\n"))
        XCTAssertEqual(rejected.harnessProblem, .rejectedArguments)
        XCTAssertEqual(rejected.harnessError, "the child rejected its arguments: usage: racelab-child --seed N")
        XCTAssertEqual(
            summaries(verdict(child(.exited(0), stderr: "Fatal error: Index out of range\n"))), ["Index out of range"])
        var malformed = child(.exited(0))
        malformed.malformedLines = ["RACELAB-RESULT {"]
        XCTAssertEqual(verdict(malformed).harnessProblem, .noResult)
        XCTAssertEqual(verdict(malformed).harnessError, "the child sent a malformed result: RACELAB-RESULT {")
        XCTAssertEqual(
            verdict(child(.exited(0))).harnessError, "the child exited (status 0) without sending a result")
        XCTAssertEqual(summaries(verdict(child(.exited(1), result: clean()))), ["exited with status 1"])
        XCTAssertEqual(
            summaries(verdict(child(.exited(1), stderr: "Assertion failed: x\n", result: clean()))),
            ["exited with status 1: Assertion failed: x"])
        XCTAssertEqual(verdict(child(.exited(1))).detections.map(\.iteration), [nil])
    }

    func testAnOverflowingChannelCannotBeTrusted() {
        var cut = child(.exited(0), result: clean())
        cut.channelTruncated = true
        let judged = verdict(cut)
        XCTAssertEqual(judged.harnessProblem, .channelOverflow)
        XCTAssertEqual(
            judged.harnessError, "the result channel was longer than the output limit, so it cannot be trusted")
    }

    /// Cut output and processes left running are said after the run's own notes; the processes
    /// are interference, unless a SIGKILL nobody sent came first.
    func testCutOutputAndLeftoverProcessesAreNoted() {
        var result = clean()
        result.notes = ["the story's own note"]
        var messy = child(.exited(0), result: result)
        messy.stderrTruncated = true
        messy.stdoutTruncated = true
        messy.leftoverProcesses = 2
        let judged = verdict(messy)
        XCTAssertEqual(
            judged.notes,
            [
                "the story's own note", "stderr was longer than the output limit and was cut",
                "stdout was longer than the output limit and was cut",
                "the child left 2 process(es) running; they were killed"
            ])
        XCTAssertEqual(judged.interference, "the child left 2 process(es) running")
        var killed = child(.signaled(SIGKILL))
        killed.leftoverProcesses = 1
        XCTAssertEqual(verdict(killed).interference?.hasPrefix("the child was killed by a SIGKILL"), true)
    }
}
