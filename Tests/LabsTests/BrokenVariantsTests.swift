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

/// Every broken variant, in its own child process, scripted mode: caught in every run, by at
/// least one of the detectors its lab expects.
final class BrokenVariantsTests: XCTestCase {
    func testEveryBrokenVariantIsDetectedInEveryScriptedRun() {
        let rows = testLabs.labs.flatMap { lab in
            lab.variants.filter { $0.kind == .broken }.map {
                LabRunner.Row(
                    lab: lab.lab, variant: $0, mode: .scripted,
                    settings: RunSettings(executable: LabsTestSupport.child, runs: 3, seed: 77))
            }
        }
        XCTAssertEqual(rows.count, testLabs.labs.count, "one broken variant per lab")
        for (outcome, row) in zip(LabRunner.run(rows, jobs: ChildPool.defaultJobs()), rows) {
            let lab = row.lab
            XCTAssertTrue(outcome.met, TableReporter(colour: false).render([outcome]))
            for run in outcome.runs {
                let fired = Set(run.detections.map(\.detector))
                XCTAssertFalse(
                    fired.isDisjoint(with: lab.info.expectedDetectors),
                    "\(lab.id) seed \(run.seed): fired \(fired), expected one of \(lab.info.expectedDetectors)")
            }
        }
    }

    /// Grading's stop groups: the broken variant is caught by the first scripted run, so the
    /// group's runs not yet started (one child at a time: all the others) are left out.
    func testAGroupCaughtInTheScriptedRunsSkipsItsStressRuns() throws {
        let lab = try XCTUnwrap(testLabs.lab("list-adder"))
        let broken = try XCTUnwrap(lab.variant(named: "broken"))
        let rows = [RunMode.stress, .scripted].map { mode in
            LabRunner.Row(
                lab: lab.lab, variant: broken, mode: mode,
                settings: RunSettings(executable: LabsTestSupport.child, iterations: 50, runs: 2, seed: 9))
        }
        let outcomes = LabRunner.run(rows, jobs: 1, stopGroups: [0, 0])
        XCTAssertEqual(
            outcomes[1].runs.count, 1, "a scripted run goes first, though listed second, and the second is skipped")
        XCTAssertTrue(outcomes[1].runs.allSatisfy(\.detected))
        XCTAssertEqual(outcomes[0].runs.count, 0, "the stress runs were skipped")
        let ungrouped = LabRunner.run(rows, jobs: 1)
        XCTAssertEqual(ungrouped.map(\.runs.count), [2, 2], "without groups every run runs")
    }

    /// A catch by the scripted runs also stops the group's runs already going and leaves them
    /// out: here a stress run of the fix long enough to take ten minutes, started beside the
    /// scripted run of the broken variant, shows in no outcome (with every run side by side,
    /// nothing is left unstarted to skip), and the call ends long before it would have. A group
    /// caught only by another pass keeps its runs; another group is never stopped.
    func testAScriptedCatchStopsTheGroupsRunsUnderWay() throws {
        let lab = try XCTUnwrap(testLabs.lab("list-adder"))
        func rows(_ scripted: String, _ stress: String, stressIterations: Int) -> [LabRunner.Row] {
            [(scripted, RunMode.scripted, 3), (stress, .stress, stressIterations)].map { name, mode, iterations in
                LabRunner.Row(
                    lab: lab.lab, variant: lab.variant(named: name)!, mode: mode,
                    settings: RunSettings(executable: LabsTestSupport.child, iterations: iterations, runs: 2, seed: 9))
            }
        }
        let started = Date()
        let outcomes = LabRunner.run(
            rows("broken", "fixed", stressIterations: 20_000), jobs: 4, stopGroups: [0, 0])
        XCTAssertLessThan(Date().timeIntervalSince(started), 120, "the stress runs were stopped, not waited for")
        XCTAssertFalse(outcomes[0].runs.isEmpty)
        XCTAssertTrue(outcomes[0].runs.allSatisfy(\.detected), "the scripted runs caught it")
        XCTAssertEqual(outcomes[1].runs.count, 0, "the stress runs under way were stopped and left out")
        let stressCatch = LabRunner.run(rows("fixed", "broken", stressIterations: 20), jobs: 4, stopGroups: [0, 0])
        XCTAssertEqual(stressCatch[0].runs.count, 2, "clean scripted runs are kept")
        XCTAssertFalse(stressCatch[1].runs.isEmpty, "a catch by stress alone stops nothing under way")
        XCTAssertTrue(stressCatch[1].runs.contains(where: \.detected), "stress caught it")
        let apart = LabRunner.run(rows("broken", "fixed", stressIterations: 20), jobs: 4, stopGroups: [0, 1])
        XCTAssertEqual(apart.map(\.runs.count), [2, 2], "another group's runs are not stopped")
    }

    func testListAdderBrokenIsCaughtByTSanAtItsOwnLines() throws {
        let lab = try XCTUnwrap(testLabs.lab("list-adder"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 5)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertTrue(run.fired(.tsan))
        XCTAssertTrue(run.fired(.crash), "removing items mid-sum runs the loop past the end")
        let report = try XCTUnwrap(run.reports.first)
        let labLines = report.frames(under: lab.info.folder.path).compactMap(\.shortLocation)
        // Either racing read may be the one TSan catches first: the count (37) or an element (39).
        XCTAssertTrue(
            labLines.contains("Broken.swift:37") || labLines.contains("Broken.swift:39"),
            "the racing read is tied to the lab's source: \(labLines)")
    }
}

/// `--trace`: the child records the interleaving into a file the parent reads back, even when
/// the child crashes.
final class TraceTests: XCTestCase {
    func testListAdderTraceShowsTheUserTheHeldWorkerAndTheRace() throws {
        let lab = try XCTUnwrap(testLabs.lab("list-adder"))
        var settings = RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 11)
        settings.trace = true
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertTrue(run.fired(.crash))
        let trace = try XCTUnwrap(run.trace, "the trace survives the crash")
        let kinds = trace.events.map(\.kind)
        XCTAssertTrue(kinds.contains(.report), "the TSan hook marks the racing thread")
        XCTAssertTrue(
            trace.events.contains { $0.kind == .action && $0.text == "deletes all but one" && $0.isMainThread })
        XCTAssertTrue(trace.events.contains { $0.kind == .pause && !$0.isMainThread })
        let held = try XCTUnwrap(trace.events.firstIndex { $0.kind == .pause })
        let deleted = try XCTUnwrap(trace.events.firstIndex { $0.text == "deletes all but one" })
        XCTAssertLessThan(held, deleted, "the worker is held before the user deletes")
        let text = SwimlaneRenderer.render([outcome])
        XCTAssertTrue(text.contains(">> deletes all but one"), text)
        XCTAssertTrue(text.contains("thread T"), "lanes are named as TSan names the threads: \(text)")
    }
}
