import Foundation
import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabHarness
import RaceLabReports
import XCTest

/// cooperative-cancellation: the user cancels the export while photo 3 is being encoded; the task
/// never looks at its cancellation and its encoder never hears of it. No data race: only the
/// lab's count of the work after the cancel can see it.
final class CooperativeCancellationTests: XCTestCase {
    func testBrokenExportRunsToItsEndAndTSanIsSilent() throws {
        let lab = try XCTUnwrap(testLabs.lab("cooperative-cancellation"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 3, seed: 21)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        XCTAssertEqual(outcome.runs.count, 3)
        for run in outcome.runs {
            let table = TableReporter(colour: false).render([outcome])
            XCTAssertTrue(run.fired(.invariant), "the export went on after the cancel (seed \(run.seed)):\n\(table)")
            XCTAssertFalse(run.fired(.tsan), "a task's cancel flag is no data race\n\(table)")
            XCTAssertEqual(run.failures.first?.iteration, 1, "caught by the story itself, not by luck")
            // Cancelled in photo 3's second chunk; the run stops at the iteration that caught it.
            XCTAssertEqual(run.metrics["chunks after cancel"], 10, "photo 3's last chunk and photos 4 to 6")
            XCTAssertEqual(run.notes, [], "the cancel came while photo 3's chunk was held")
        }
    }

    /// Checking only after the photo was added passes the scripted story (the handler stops photo
    /// 3's job), but exploration cancels during a photo's last chunk, and that photo still lands.
    func testCheckingAfterPublishingIsCaughtByExploration() throws {
        try LabsTestSupport.requireSolutions(try XCTUnwrap(testLabs.lab("cooperative-cancellation")))
        let wrong = try LabsTestSupport.runRacelab(
            [
                "run", "cooperative-cancellation", "--variant", "wrong-check-after-publishing", "--mode", "explore",
                "--runs", "1", "--seed", "5"
            ])
        XCTAssertEqual(wrong.status, 0, "expected: detected\n\(wrong.stdout)\(wrong.stderr)")
        XCTAssertTrue(wrong.stdout.contains("DETECTED 1/1"), wrong.stdout)
        XCTAssertTrue(wrong.stdout.contains("landed in the album after the user cancelled"), wrong.stdout)

        let valid = try LabsTestSupport.runRacelab(
            [
                "run", "cooperative-cancellation", "--variant", "valid-task-group", "--mode", "explore",
                "--runs", "1", "--seed", "5"
            ])
        XCTAssertEqual(valid.status, 0, "expected: clean\n\(valid.stdout)\(valid.stderr)")
        XCTAssertTrue(valid.stdout.contains("CLEAN 1/1"), valid.stdout)
    }
}
