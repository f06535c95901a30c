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

/// The photo-pipeline lab beyond the generic checks: the tutorial's design is caught by TSan
/// (operations sharing the photo records with the table) and by the invariant on cancelled rows
/// (a download cannot stop half way); the fixed pipeline is clean.
final class PhotoPipelineTests: XCTestCase {
    func testTheTutorialsPipelineSharesRecordsAndCannotStopADownload() throws {
        let lab = try XCTUnwrap(testLabs.lab("photo-pipeline"))
        // Some runs crash first (Foundation on Linux frees a cancelled filter that its download
        // still points at: the lesson says so); those are caught too, and the others must show both.
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 6, seed: 21)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        XCTAssertEqual(outcome.runs.count, 6)
        for run in outcome.runs {
            XCTAssertTrue(
                run.fired(.tsan) || run.fired(.crash) || !run.failures.isEmpty, "every run is caught (\(run.reproduce))"
            )
        }
        let whole = outcome.runs.filter { !$0.fired(.crash) }
        XCTAssertFalse(whole.isEmpty, "at least one of 6 runs ends without a crash")
        // The story draws rows 4 and 5 while their filtered pictures wait in the main queue (the
        // main thread busy until the operations ended), so every whole run shows the race on the
        // records, tied to the lab's source, and the cancelled row's extra work.
        for run in whole {
            let messages = run.failures.map(\.message)
            XCTAssertTrue(messages.contains { $0.contains("was cancelled") }, "\(messages) \(Self.describe(run))")
            let labLines = run.reports.flatMap { $0.frames(under: lab.info.folder.path) }.compactMap(\.shortLocation)
            XCTAssertTrue(
                labLines.contains { $0.hasPrefix("Broken.swift") },
                "a race tied to the lab's source: \(labLines) \(Self.describe(run))")
        }
    }

    /// What a failed assertion needs to say about its run: how it was caught, how far it got, what
    /// the story noted (a pause not reached), and the command that replays it.
    static func describe(_ run: RunVerdict) -> String {
        let caught = run.detections.map { "\($0.detector) in iteration \($0.iteration.map(String.init) ?? "?")" }
        return
            "(caught by \(caught), \(run.iterationsRun) of \(run.iterationsRequested) iterations, notes \(run.notes), "
            + "\(run.harnessError ?? "no harness error"); \(run.reproduce))"
    }

    func testFixedPipelinesAreCleanInProcess() throws {
        let lab = try XCTUnwrap(testLabs.lab("photo-pipeline"))
        try LabsTestSupport.requireSolutions(lab)
        for variant in ["fixed", "fixed-task"] {
            let plan = ScenarioPlan(
                lab: lab.id, variant: variant, mode: .scripted, iterations: 2, seed: 3, stopAtFirstDetection: false)
            let outcome = ScenarioDriver.run(lab, plan: plan)
            XCTAssertEqual(outcome.failures, [], variant)
            XCTAssertEqual(outcome.tsanReports, 0, variant)
            XCTAssertEqual(outcome.notes, [], "\(variant): every scripted pause was reached")
        }
    }
}
