import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

final class VerdictTests: XCTestCase {
    let plan = ScenarioPlan(lab: "list-adder", variant: "broken", mode: .scripted, iterations: 3, seed: 42)

    /// A child's outcome; by default its heartbeats announced every iteration and point its
    /// result claims (`announced: false`: none, as a result written by lab code would have it).
    func child(
        _ ending: ChildOutcome.Ending, stderr: String = "", result: ScenarioOutcome? = nil,
        progress: ChildChannel.Progress? = nil, announced: Bool = true
    ) -> ChildOutcome {
        var outcome = ChildOutcome(
            ending: ending, stderr: stderr, results: result.map { [$0] } ?? [], lastProgress: progress,
            elapsedSeconds: 1)
        if announced, let result {
            outcome.announcedIterations = Set(0...result.iterationsRun)
            outcome.announcedPoints = Set(result.explored)
        }
        return outcome
    }

    func cleanResult() -> ScenarioOutcome { .cleanThreeIterations }

    func testCleanRun() {
        let verdict = VerdictBuilder.verdict(
            plan: plan, kind: .fixed, child: child(.exited(0), result: cleanResult()), reproduce: "r")
        XCTAssertFalse(verdict.detected)
        XCTAssertNil(verdict.harnessError)
        XCTAssertEqual(
            VariantOutcome(lab: "l", variant: "fixed", kind: .fixed, mode: .stress, runs: [verdict]).met, true)
    }

    func testTSanReportAndCrashAreBothDetections() throws {
        let log = try Fixture.text("list-adder-broken.log")
        let verdict = VerdictBuilder.verdict(
            plan: plan, kind: .broken, child: child(.signaled(4), stderr: log), reproduce: "r")
        XCTAssertEqual(verdict.detections.map(\.detector), [.tsan, .crash])
        XCTAssertTrue(
            verdict.detections[0].summary.hasPrefix("Swift access race: main thread write in ListAdderBroken.removeAll")
        )
        XCTAssertEqual(verdict.detections[1].summary, "died on SIGILL: Index out of range")
        XCTAssertEqual(
            VariantOutcome(lab: "l", variant: "broken", kind: .broken, mode: .scripted, runs: [verdict]).met, true)
    }

    func testInvariantFailure() {
        var result = cleanResult()
        result.failures = [
            InvariantFailure(iteration: 2, message: "the total shows 7", file: "Scenario.swift", line: 9)
        ]
        result.firstFailureIteration = 2
        let verdict = VerdictBuilder.verdict(
            plan: plan, kind: .fixed, child: child(.exited(0), result: result), reproduce: "r")
        XCTAssertEqual(verdict.detections.map(\.detector), [.invariant])
        XCTAssertEqual(verdict.detections[0].iteration, 2)
        let outcome = VariantOutcome(lab: "l", variant: "fixed", kind: .fixed, mode: .stress, runs: [verdict])
        XCTAssertFalse(outcome.met, "a fixed variant that breaks an invariant fails its expectation")
        XCTAssertEqual(outcome.offendingRuns.count, 1)
    }

    func testHangReportsWhereThreadsWere() {
        let progress = ChildChannel.Progress(
            iteration: 1, checkpointHits: 4,
            threads: [
                ThreadPosition(threadID: 11, isMainThread: true, checkpoint: "lock.b", hit: 1, secondsAgo: 10.2)
            ])
        let verdict = VerdictBuilder.verdict(
            plan: plan, kind: .broken, child: child(.killedAfterStall, progress: progress), reproduce: "r")
        XCTAssertEqual(verdict.detections.map(\.detector), [.hang])
        XCTAssertTrue(verdict.detections[0].summary.contains("main thread at lock.b #1"))
    }

    func testAHungChildStillReportsTheInvariantsItBrokeBefore() {
        var hung = child(
            .killedAfterStall, progress: ChildChannel.Progress(iteration: 1, checkpointHits: 9, threads: []))
        hung.streamedFailures = [
            InvariantFailure(iteration: 1, message: "thumbnail never finished", file: "Scenario.swift", line: 7)
        ]
        let verdict = VerdictBuilder.verdict(plan: plan, kind: .broken, child: hung, reproduce: "r")
        XCTAssertEqual(verdict.detections.map(\.detector), [.invariant, .hang])
        XCTAssertEqual(verdict.detections[0].summary, "thumbnail never finished (Scenario.swift:7)")
        XCTAssertEqual(verdict.failures.count, 1)
    }

    func testSummaryPrefersARealSourceLineToACompilerGeneratedAccessor() throws {
        let report = try XCTUnwrap(
            TSanReportParser.parse(
                """
                ==================
                WARNING: ThreadSanitizer: data race (pid=1)
                  Write of size 1 at 0x7230 by thread T3:
                    #0 $s4Demo1CC5stateSivs /work/Labs/Demo/Broken.swift (racelab+0x1)
                    #1 $s4Demo1CC6finishyyF /work/Labs/Demo/Broken.swift:58:15 (racelab+0x2)

                  Previous read of size 1 at 0x7230 by main thread:
                    #0 $s4Demo1CC5stateSivg /<compiler-generated> (racelab+0x3)
                    #1 $s4Demo1CC10isFinishedSbvg /work/Labs/Demo/Broken.swift:46:37 (racelab+0x4)

                SUMMARY: ThreadSanitizer: data race /work/Labs/Demo/Broken.swift in $s4Demo1CC5stateSivs
                ==================
                """
            ).first)
        let line = ReportSummary.oneLine(report)
        XCTAssertTrue(line.contains("(Broken.swift) vs main thread read in"), line)
        XCTAssertTrue(line.hasSuffix("(Broken.swift:46)"), line)
        XCTAssertFalse(line.contains("compiler-generated"), line)
    }

    /// Whether a run was forged is a fact recorded with it, kept through a saved report, and
    /// never read from a message's wording.
    func testForgedIsATypeNotAWord() throws {
        var honest = VerdictBuilder.verdict(
            plan: plan, kind: .exercise, child: child(.exited(0), result: cleanResult()), reproduce: "r")
        honest.cannotJudge(.noResult, "the child said: forged result, forged everything")
        XCTAssertFalse(honest.wasForged, "a message is not a verdict")
        var forged = honest
        forged.markForged("the run rewrote the TSan settings file the harness gave it")
        let saved = try JSONDecoder().decode(RunVerdict.self, from: JSONEncoder().encode(forged))
        XCTAssertTrue(saved.wasForged)
        XCTAssertFalse(try JSONDecoder().decode(RunVerdict.self, from: JSONEncoder().encode(honest)).wasForged)
    }

    /// A result line the heartbeats never showed happening is no pass, whatever it says.
    func testAResultWithoutATrailIsForged() {
        let forged = VerdictBuilder.verdict(
            plan: plan, kind: .exercise, child: child(.exited(0), result: cleanResult(), announced: false),
            reproduce: "r")
        XCTAssertFalse(forged.detected)
        XCTAssertTrue(
            forged.wasForged && forged.harnessError?.hasPrefix(VerdictBuilder.forgedMarker) == true,
            forged.harnessError ?? "")
        XCTAssertTrue(forged.harnessError?.contains("none of them was announced") == true, forged.harnessError ?? "")

        // Announced, but fewer iterations than planned, and clean: the run was cut short.
        var short = cleanResult()
        short.iterationsRun = 1
        let cut = VerdictBuilder.verdict(
            plan: plan, kind: .exercise, child: child(.exited(0), result: short), reproduce: "r")
        XCTAssertTrue(cut.harnessError?.contains("the plan asked for 3") == true, cut.harnessError ?? "")

        // A point nobody announced.
        var explore = plan
        explore.mode = .explore
        var claimed = cleanResult()
        claimed.explored = ["1:2"]
        var outcome = child(.exited(0), result: claimed)
        outcome.announcedPoints = []
        let invented = VerdictBuilder.verdict(plan: explore, kind: .exercise, child: outcome, reproduce: "r")
        XCTAssertTrue(invented.harnessError?.contains("point 1:2") == true, invented.harnessError ?? "")

        // The honest account of the same run passes.
        let honest = VerdictBuilder.verdict(
            plan: plan, kind: .exercise, child: child(.exited(0), result: cleanResult()), reproduce: "r")
        XCTAssertNil(honest.harnessError)
    }

    func testNoResultIsAHarnessErrorNotAPass() {
        let verdict = VerdictBuilder.verdict(plan: plan, kind: .fixed, child: child(.exited(0)), reproduce: "r")
        XCTAssertNotNil(verdict.harnessError)
        XCTAssertFalse(VariantOutcome(lab: "l", variant: "fixed", kind: .fixed, mode: .stress, runs: [verdict]).met)
    }

    func testAChildWithoutTSanCannotPass() {
        var result = cleanResult()
        result.tsanEnabled = false
        let verdict = VerdictBuilder.verdict(
            plan: plan, kind: .fixed, child: child(.exited(0), result: result), reproduce: "r")
        XCTAssertNotNil(verdict.harnessError)
    }

    func testEarlyExitIsACrash() {
        let verdict = VerdictBuilder.verdict(plan: plan, kind: .exercise, child: child(.exited(3)), reproduce: "r")
        XCTAssertEqual(verdict.detections.map(\.detector), [.crash])
    }

    func testBrokenVariantThatIsNotCaughtFailsWithSeedAndReproduceCommand() {
        let verdict = VerdictBuilder.verdict(
            plan: plan, kind: .broken, child: child(.exited(0), result: cleanResult()),
            reproduce: LabRunner.reproduceCommand(plan))
        let outcome = VariantOutcome(
            lab: "list-adder", variant: "broken", kind: .broken, mode: .scripted, runs: [verdict])
        XCTAssertFalse(outcome.met)
        let table = TableReporter(colour: false).render([outcome])
        XCTAssertTrue(
            table.contains("FAIL list-adder broken (scripted) was NOT caught: lab list-adder, variant broken, seed 42.")
        )
        XCTAssertTrue(
            table.contains(
                "reproduce: racelab run list-adder --variant broken --mode scripted --iterations 3 --seed 42"))
        XCTAssertFalse(table.contains("\u{1B}["), "no colour unless asked")
    }

    /// A child TSan ended itself (it refused an allocation) shows TSan's own line, not "no
    /// result".
    func testTSanEndingTheChildIsACrashThatSaysWhy() throws {
        let log = try Fixture.text("allocation-too-big.log")
        let verdict = VerdictBuilder.verdict(
            plan: plan, kind: .exercise, child: child(.exited(66), stderr: log), reproduce: "r")
        XCTAssertNil(verdict.harnessError)
        XCTAssertEqual(verdict.detections.map(\.detector), [.crash])
        XCTAssertTrue(
            verdict.detections[0].summary.hasPrefix(
                "ThreadSanitizer ended the child: ERROR: ThreadSanitizer: requested allocation size 0x400000000000"),
            verdict.detections[0].summary)
    }

    /// A report whose function is a crafted, 50,000-level nested mangled name cannot crash the
    /// parent: it is left mangled.
    func testADeeplyNestedMangledNameInAReportIsHarmless() {
        let name = "$s" + String(repeating: "Say", count: 50_000) + "Si" + String(repeating: "G", count: 50_000)
        let stderr = """
            ==================
            WARNING: ThreadSanitizer: data race (pid=1)
              Write of size 8 at 0x7b0400000010 by thread T1:
                #0 \(name) /x/Labs/ListAdder/Exercise.swift:3:1 (racelab-child+0x1)

              Previous read of size 8 at 0x7b0400000010 by main thread:
                #0 \(name) /x/Labs/ListAdder/Exercise.swift:4:1 (racelab-child+0x2)

            SUMMARY: ThreadSanitizer: data race /x/Labs/ListAdder/Exercise.swift:3:1 in \(name)
            ==================
            """
        let verdict = VerdictBuilder.verdict(
            plan: plan, kind: .exercise, child: child(.exited(66), stderr: stderr), reproduce: "r")
        XCTAssertTrue(verdict.fired(.tsan))
        XCTAssertEqual(SwiftDemangler.demangle(name), name, "too long to demangle safely: left as it is")
    }
}

final class ExplorationShardTests: XCTestCase {
    func testShardsSplitThePointsAndParseStrictly() {
        let shard = ExplorationShard("1/3")
        XCTAssertEqual(shard?.description, "1/3")
        XCTAssertEqual((0..<9).filter { shard!.includes($0) }, [1, 4, 7])
        for bad in ["3/3", "-1/2", "1/0", "1", "a/b", "1/2/3"] { XCTAssertNil(ExplorationShard(bad), bad) }
    }

    func testMergedShardsKeepTheFirstCatchAndAddUpIterations() {
        func verdict(_ iterations: Int, caught: String?) -> RunVerdict {
            RunVerdict(
                lab: "l", variant: "v", kind: .fixed, mode: .explore, seed: 1, iterationsRequested: 10,
                iterationsRun: iterations,
                detections: caught.map { [Detection(detector: .invariant, iteration: 2, seconds: 1, summary: $0)] }
                    ?? [],
                reports: [], failures: [], hangPositions: [], harnessError: nil, notes: ["n"], metrics: ["m": 1],
                elapsedSeconds: Double(iterations), reproduce: caught.map { "replay \($0)" } ?? "whole", trace: nil,
                point: caught, explored: iterations - 1)
        }
        let merged = RunVerdict.merging([verdict(3, caught: nil), verdict(2, caught: "1:4"), verdict(2, caught: "1:5")]
        )!
        XCTAssertEqual(merged.iterationsRun, 7)
        XCTAssertEqual(merged.explored, 4)
        XCTAssertEqual(merged.point, "1:4")
        XCTAssertEqual(merged.reproduce, "replay 1:4")
        XCTAssertEqual(merged.detections.count, 1, "one detection per detector")
        XCTAssertEqual(merged.notes, ["n"])
        XCTAssertEqual(merged.metrics["m"], 3)
        XCTAssertEqual(merged.elapsedSeconds, 3)
        XCTAssertNil(RunVerdict.merging([]))
        // A shard that could not be judged makes the whole run so, as a type: a forged second
        // shard is a forged run.
        var forged = verdict(2, caught: nil)
        forged.markForged("a result line came first")
        let withForgery = RunVerdict.merging([verdict(3, caught: nil), forged])!
        XCTAssertEqual(withForgery.harnessProblem, .forged)
        XCTAssertTrue(withForgery.wasForged)
    }
}
