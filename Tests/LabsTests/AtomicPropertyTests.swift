import Foundation
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

/// atomic-property: every access is locked, so ThreadSanitizer has nothing to say, and yet
/// `x = x + 1` loses updates. Only the invariant can see it.
final class AtomicPropertyTests: XCTestCase {
    /// In this very process (under TSan, which would fail `swift test` on any race): the broken
    /// variant loses an update in every scripted iteration and TSan stays silent in both modes.
    func testBrokenLosesUpdatesWithoutAnyDataRace() throws {
        let lab = try XCTUnwrap(testLabs.lab("atomic-property"))
        let scripted = ScenarioDriver.run(
            lab,
            plan: ScenarioPlan(
                lab: lab.id, variant: "broken", mode: .scripted, iterations: 4, seed: 31, stopAtFirstDetection: false))
        XCTAssertEqual(scripted.iterationsRun, 4)
        XCTAssertEqual(scripted.failures.count, 4, "one lost update per scripted iteration: \(scripted.failures)")
        XCTAssertEqual(scripted.metrics["lost updates"], 4)
        XCTAssertEqual(scripted.tsanReports, 0)

        let stress = ScenarioDriver.run(
            lab,
            plan: ScenarioPlan(
                lab: lab.id, variant: "broken", mode: .stress, iterations: 60, seed: 32, stopAtFirstDetection: false))
        XCTAssertEqual(stress.iterationsRun, 60)
        XCTAssertEqual(stress.tsanReports, 0, "every access is locked: no data race, whatever the timing")
    }

    /// The same in a child process, with the child's TSan options (lock-order checks on).
    func testBrokenIsCaughtByTheInvariantAloneInAChild() throws {
        let lab = try XCTUnwrap(testLabs.lab("atomic-property"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 2, seed: 33)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        for run in outcome.runs {
            XCTAssertTrue(run.fired(.invariant), "seed \(run.seed)")
            XCTAssertFalse(run.fired(.tsan), "seed \(run.seed): \(run.reports.map(\.title))")
            XCTAssertEqual(run.detections.count, 1, "seed \(run.seed): \(run.detections)")
        }
    }

    /// Stress, one iteration in eight: one download loses 80 rounds in a row. A compare-and-swap
    /// loop that writes anyway after 64 lost rounds loses updates; one that retries until it wins
    /// does not.
    func testACompareAndSwapThatGivesUpAfterALosingStreakLosesUpdates() throws {
        // the corpus ships with them
        try LabsTestSupport.requireSolutions(try XCTUnwrap(testLabs.lab("atomic-property")))
        for (variant, expect) in [("wrong-retry-64-then-write", "DETECTED"), ("fixed-atomic", "CLEAN")] {
            let result = try LabsTestSupport.runRacelab([
                "run", "atomic-property", "--variant", variant, "--mode", "stress",
                "--runs", "1", "--iterations", "50", "--seed", "5"
            ])
            XCTAssertEqual(result.status, 0, "\(variant): expected \(expect)\n\(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stdout.contains("\(expect) 1/1"), "\(variant): expected \(expect)\n\(result.stdout)")
        }
    }
}
