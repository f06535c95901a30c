import Foundation
import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabHarness
import RaceLabReports
import XCTest

/// continuation-misuse: each way of getting "exactly once" wrong is caught by its own detector in
/// the scripted story: resumed twice by the runtime's crash, never by the invariant, and a flag
/// without a lock by ThreadSanitizer.
final class ContinuationMisuseTests: XCTestCase {
    func testBrokenIsStoppedByTheRuntimeAtItsSecondResumeAndTSanIsSilent() throws {
        let lab = try XCTUnwrap(testLabs.lab("continuation-misuse"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 31)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        let report = TableReporter(colour: false).render([outcome])
        XCTAssertTrue(run.fired(.crash), report)
        XCTAssertFalse(run.fired(.tsan), "a trap under TSan is a crash, not an unread race report: \(report)")
        let crash = try XCTUnwrap(run.detections.first { $0.detector == .crash })
        XCTAssertTrue(crash.summary.contains("tried to resume its continuation more than once"), crash.summary)
        XCTAssertTrue(crash.summary.contains("7 Slow Street"), "the late answer is the second resume: \(crash.summary)")
        let resumeLine = try LabsTestSupport.line(
            of: "onResult: { place in continuation.resume(returning: place) }",
            in: "Labs/ContinuationMisuse/Broken.swift")
        XCTAssertTrue(crash.summary.contains("Broken.swift:\(resumeLine)"), crash.summary)
    }

    /// Each wrong fix of the corpus, in the scripted story only: the detector the lesson names.
    func testEachHalfFixIsCaughtInTheScriptedStoryByItsDetector() throws {
        try LabsTestSupport.requireSolutions(try XCTUnwrap(testLabs.lab("continuation-misuse")))
        let expected: [(variant: String, column: String, says: String)] = [
            (
                "wrong-success-only", "invariant",
                "\"1 Nowhere Lane\" (the server does not know the address) never returned"
            ),
            (
                "wrong-waits-for-late-answer", "invariant",
                "\"3 Quiet Close\" (the geocoder timed out and no answer ever came) never returned"
            ),
            ("wrong-unlocked-flag", "tsan", "data race"),
            ("wrong-resume-then-cancel", "crash", "tried to resume its continuation more than once"),
            ("wrong-cancel-then-resume", "crash", "tried to resume its continuation more than once, throwing timedOut")
        ]
        for (variant, column, says) in expected {
            let result = try LabsTestSupport.runRacelab(
                ["run", "continuation-misuse", "--variant", variant, "--mode", "scripted", "--runs", "2", "--seed", "8"]
            )
            XCTAssertEqual(result.status, 0, "\(variant): expected detected\n\(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stdout.contains("DETECTED 2/2"), "\(variant): \(result.stdout)")
            XCTAssertTrue(result.stdout.contains("  \(column): "), "\(variant) caught by \(column): \(result.stdout)")
            XCTAssertTrue(result.stdout.contains(says), "\(variant): \(result.stdout)")
        }
    }
}
