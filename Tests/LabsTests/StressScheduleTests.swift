import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabHarness
import XCTest

#if RACELAB_SOLUTIONS
    import SolutionCatalog
#endif

/// The stress pass's two ways to preempt (`StressSchedule`): its stories take turns between
/// random pauses and the priority order (PriorityOrder.c), `--schedule` keeps to one, a race is
/// still a race under either, and a replay names the way it ran.
final class StressScheduleTests: XCTestCase {
    func testTheStoriesTakeTurnsAndThePriorityOnesChangeOrder() throws {
        let lab = try XCTUnwrap(testLabs.lab("check-then-act"))
        try LabsTestSupport.requireSolutions(lab)
        let settings = RunSettings(executable: LabsTestSupport.child, iterations: 10, runs: 1, seed: 41)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "fixed")), mode: .stress, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertFalse(run.detected, run.testDescription)
        XCTAssertEqual(run.iterationsRun, 10)
        XCTAssertEqual(run.metrics["stories in priority order"], 5, "one story in two: \(run.metrics)")
        // Change points (drawn among the looks the story before counted) and demotions of a thread
        // that kept the others waiting: some 1.5 a story in check-then-act.
        XCTAssertGreaterThan(run.metrics["priority changes"] ?? 0, 0, "\(run.metrics)")
        XCTAssertGreaterThan(run.metrics["preemptions"] ?? 0, 0, "\(run.metrics)")
        XCTAssertFalse(run.reproduce.contains("--schedule"), run.reproduce)
    }

    func testARaceIsCaughtInPriorityOrderAndItsReplayKeepsTheWay() throws {
        let lab = try XCTUnwrap(testLabs.lab("list-adder"))
        var settings = RunSettings(executable: LabsTestSupport.child, iterations: 20, runs: 1, seed: 5)
        settings.schedule = .priority
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .stress, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertTrue(run.fired(.tsan), run.testDescription)
        XCTAssertEqual(run.metrics["stories in priority order"], Double(run.iterationsRun), "\(run.metrics)")
        XCTAssertTrue(run.reproduce.hasSuffix("--schedule priority"), run.reproduce)
    }

    func testPausesAloneOrderNothing() throws {
        let lab = try XCTUnwrap(testLabs.lab("check-then-act"))
        try LabsTestSupport.requireSolutions(lab)
        var settings = RunSettings(executable: LabsTestSupport.child, iterations: 4, runs: 1, seed: 3)
        settings.schedule = .pauses
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "fixed")), mode: .stress, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertFalse(run.detected, run.testDescription)
        XCTAssertNil(run.metrics["stories in priority order"], "\(run.metrics)")
        XCTAssertGreaterThan(run.metrics["preemptions"] ?? 0, 0, "\(run.metrics)")
    }
}
