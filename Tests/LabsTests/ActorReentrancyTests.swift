import Foundation
import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabHarness
import RaceLabReports
import XCTest

/// actor-reentrancy: the second view's call runs on the actor while the first is suspended in its
/// download. No data race: only the lab's count of downloads can see it.
final class ActorReentrancyTests: XCTestCase {
    func testBrokenDownloadsThePhotoTwiceAndTSanIsSilent() throws {
        let lab = try XCTUnwrap(testLabs.lab("actor-reentrancy"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 3, seed: 21)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        XCTAssertEqual(outcome.runs.count, 3)
        for run in outcome.runs {
            let table = TableReporter(colour: false).render([outcome])
            XCTAssertTrue(run.fired(.invariant), "photo 7 downloaded twice (seed \(run.seed)):\n\(table)")
            XCTAssertFalse(run.fired(.tsan), "an actor's calls are ordered: no data race to report\n\(table)")
            XCTAssertEqual(run.failures.first?.iteration, 1, "caught by the story itself, not by luck")
            XCTAssertEqual(run.metrics["extra downloads"], 1, "one extra download: the detail view's")
            XCTAssertEqual(run.notes, [], "the detail view asked while the gallery's download was held")
        }
    }

    /// The near miss of the lesson: looking into the cache again after the download keeps one copy,
    /// but the photo was downloaded twice by then.
    func testLookingAgainAfterTheDownloadIsNotEnough() throws {
        try LabsTestSupport.requireSolutions(try XCTUnwrap(testLabs.lab("actor-reentrancy")))
        let scripted = ["--mode", "scripted", "--runs", "2", "--seed", "5"]
        let wrong = try LabsTestSupport.runRacelab(
            ["run", "actor-reentrancy", "--variant", "wrong-recheck-after-download"] + scripted)
        XCTAssertEqual(wrong.status, 0, "expected: detected\n\(wrong.stdout)\(wrong.stderr)")
        XCTAssertTrue(wrong.stdout.contains("DETECTED 2/2"), wrong.stdout)
        XCTAssertTrue(wrong.stdout.contains("photo 7 was downloaded 2 times"), wrong.stdout)

        let valid = try LabsTestSupport.runRacelab(
            ["run", "actor-reentrancy", "--variant", "valid-task-cache"] + scripted)
        XCTAssertEqual(valid.status, 0, "expected: clean\n\(valid.stdout)\(valid.stderr)")
        XCTAssertTrue(valid.stdout.contains("CLEAN 2/2"), valid.stdout)
    }
}
