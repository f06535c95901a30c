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

/// check-then-act: the second visitor passes the "nobody is updating" check while the first is
/// between its check and its write.
final class CheckThenActTests: XCTestCase {
    func testBrokenLosesAVisitAndTSanNamesTheCheckAndTheWrite() throws {
        let lab = try XCTUnwrap(testLabs.lab("check-then-act"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 21)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertTrue(run.fired(.tsan), TableReporter(colour: false).render([outcome]))
        XCTAssertTrue(run.fired(.invariant), "two visits, one counted")
        XCTAssertGreaterThanOrEqual(
            run.metrics["lost updates"] ?? 0, 1,
            "visitor 2 counted in the gap (on a very busy machine visitor 1 may lose its own too)")

        let source = try String(contentsOf: lab.info.folder.appendingPathComponent("Broken.swift"), encoding: .utf8)
            .components(separatedBy: "\n")
        func line(_ text: String) throws -> String {
            "Broken.swift:\(try XCTUnwrap(source.firstIndex { $0.contains(text) }, text) + 1)"
        }
        let reported = Set(run.reports.flatMap { $0.frames(under: lab.info.folder.path).compactMap(\.shortLocation) })
        XCTAssertTrue(reported.contains(try line("while someoneIsUpdating")), "the check races: \(reported)")
        XCTAssertTrue(reported.contains(try line("count = next")), "the write races: \(reported)")
    }
}

/// A fix whose window lies between two of the student's own instructions (an atomic load, then
/// a separate store) has no checkpoint inside: the stress pass's random preemption must open it.
final class CheckThenActPreemptionTests: XCTestCase {
    func testAnAtomicLoadThenStoreIsCaughtAndACompareExchangeIsNot() throws {
        try XCTSkipUnless(PlatformChecks.here.preemptionAndHolds, "this build has no preemption or holds")
        // the corpus ships with them
        try LabsTestSupport.requireSolutions(try XCTUnwrap(testLabs.lab("check-then-act")))
        let stress = ["--mode", "stress", "--runs", "1", "--iterations", "300", "--seed", "5"]
        let wrong = try LabsTestSupport.runRacelab(
            ["run", "check-then-act", "--variant", "wrong-atomic-flag-load-store"] + stress)
        XCTAssertEqual(wrong.status, 0, "expected: detected\n\(wrong.stdout)\(wrong.stderr)")
        XCTAssertTrue(wrong.stdout.contains("DETECTED"), wrong.stdout)
        XCTAssertTrue(
            wrong.stdout.contains("preemptions"), "the stress pass reports how often it preempted: \(wrong.stdout)")

        let valid = try LabsTestSupport.runRacelab(
            ["run", "check-then-act", "--variant", "valid-compare-exchange"] + stress)
        XCTAssertEqual(valid.status, 0, "expected: clean\n\(valid.stdout)\(valid.stderr)")
        XCTAssertTrue(valid.stdout.contains("CLEAN"), valid.stdout)
    }
}
