import Foundation
import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabHarness
import RaceLabReports
import XCTest

/// task-lifetime: the user leaves while the screen's task waits for page 1. No data race: only
/// the lab's checks (updates and requests after leaving, where the view model died) see it.
final class TaskLifetimeTests: XCTestCase {
    func testBrokenUpdatesTheGoneScreenAndKeepsLoading() throws {
        let lab = try XCTUnwrap(testLabs.lab("task-lifetime"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 3, seed: 23)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        XCTAssertEqual(outcome.runs.count, 3)
        let table = TableReporter(colour: false).render([outcome])
        for run in outcome.runs {
            XCTAssertTrue(run.fired(.invariant), "the gone screen updated (seed \(run.seed)):\n\(table)")
            XCTAssertFalse(run.fired(.tsan), "every update runs on the main actor: no data race\n\(table)")
            XCTAssertEqual(run.failures.first?.iteration, 1, "caught by the story itself, not by luck")
            XCTAssertEqual(run.metrics["requests after leaving"], 2, "pages 2 and 3, asked for after the user left")
            let messages = run.failures.map(\.message)
            XCTAssertTrue(messages.contains { $0.contains("dismissed screen") }, "\(messages)")
        }
    }

    /// The near misses of the lesson: a weak self alone keeps asking for pages; a cancel alone
    /// lets the page in flight land.
    func testWeakSelfAloneAndCancelAloneAreNotEnough() throws {
        try LabsTestSupport.requireSolutions(try XCTUnwrap(testLabs.lab("task-lifetime")))
        let scripted = ["--mode", "scripted", "--runs", "2", "--seed", "5"]
        let weakOnly = try LabsTestSupport.runRacelab(
            ["run", "task-lifetime", "--variant", "wrong-weak-self-no-cancel"] + scripted)
        XCTAssertEqual(weakOnly.status, 0, "expected: detected\n\(weakOnly.stdout)\(weakOnly.stderr)")
        XCTAssertTrue(weakOnly.stdout.contains("DETECTED 2/2"), weakOnly.stdout)
        XCTAssertTrue(weakOnly.stdout.contains("sent after the user left"), weakOnly.stdout)

        let cancelOnly = try LabsTestSupport.runRacelab(
            ["run", "task-lifetime", "--variant", "wrong-cancel-no-check"] + scripted)
        XCTAssertEqual(cancelOnly.status, 0, "expected: detected\n\(cancelOnly.stdout)\(cancelOnly.stderr)")
        XCTAssertTrue(cancelOnly.stdout.contains("DETECTED 2/2"), cancelOnly.stdout)
        XCTAssertTrue(cancelOnly.stdout.contains("dismissed screen"), cancelOnly.stdout)

        let valid = try LabsTestSupport.runRacelab(
            ["run", "task-lifetime", "--variant", "valid-cancel-weak-self"] + scripted)
        XCTAssertEqual(valid.status, 0, "expected: clean\n\(valid.stdout)\(valid.stderr)")
        XCTAssertTrue(valid.stdout.contains("CLEAN 2/2"), valid.stdout)
    }
}
