import Foundation
import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabHarness
import RaceLabReports
import XCTest

/// priority-inversion: the urgent "show" waits for a very-low-priority decode, which the queue
/// starts after every normal-priority thumbnail. No data race: only the invariants see it, and
/// each one must fire for its own mistake.
final class PriorityInversionTests: XCTestCase {
    func testBrokenIsCaughtByTheUrgencyInvariantAloneAndCountsTheDecodesThatCutIn() throws {
        let lab = try XCTUnwrap(testLabs.lab("priority-inversion"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 3)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        let table = TableReporter(colour: false).render([outcome])
        XCTAssertTrue(run.fired(.invariant), table)
        XCTAssertFalse(run.fired(.tsan), "no data race in this lab: \(table)")
        // Five thumbnails and photo-1 were waiting when the user tapped; all of them cut in.
        XCTAssertEqual(run.metrics["decodes before the tapped photo"], 6, table)
        XCTAssertTrue(run.failures.allSatisfy { $0.message.contains("priority inversion") }, "\(run.failures)")
    }

    /// Each wrong fix of the corpus trips the invariant written for it: a prefetch that jumps the
    /// thumbnails, a second decode at once, a quality of service that changes no order.
    func testEachWrongFixTripsItsOwnInvariant() throws {
        // the corpus ships with them
        try LabsTestSupport.requireSolutions(try XCTUnwrap(testLabs.lab("priority-inversion")))
        let expected = [
            "wrong-prefetch-high": "started decoding before a thumbnail on screen",
            "wrong-decode-on-main": "decode two photos at once",
            "wrong-quality-of-service": "priority inversion"
        ]
        for (variant, message) in expected {
            let result = try LabsTestSupport.runRacelab([
                "run", "priority-inversion", "--variant", variant, "--mode", "scripted", "--runs", "1", "--seed", "4"
            ])
            XCTAssertTrue(result.stdout.contains("DETECTED"), "\(variant): \(result.stdout)")
            XCTAssertTrue(
                result.stdout.contains(message), "\(variant) should fail with \"\(message)\":\n\(result.stdout)")
        }
        let valid = try LabsTestSupport.runRacelab([
            "run", "priority-inversion", "--variant", "valid-fresh-urgent-decode", "--runs", "1", "--seed", "4"
        ])
        XCTAssertEqual(valid.status, 0, "expected clean in every mode:\n\(valid.stdout)\(valid.stderr)")
    }
}
