import LabCatalog
#if RACELAB_SOLUTIONS
import SolutionCatalog
#endif
@_spi(LabAuthoring) import LabKit
import RaceLabGrading
import RaceLabHarness
import RaceLabReports
import TSanReports
import XCTest

/// The photo-pipeline lab beyond the generic checks: the tutorial's design is caught by TSan
/// (operations sharing the photo records) and by the invariants (unfiltered rows, work after
/// cancel); the fixed pipeline is clean.
final class PhotoPipelineTests: XCTestCase {
    func testBrokenPipelineSharesRecordsAndFiltersTooEarly() throws {
        let lab = try XCTUnwrap(testLabs.lab("photo-pipeline"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 21)
        let outcome = LabRunner.run(lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertTrue(run.fired(.tsan))
        let labLines = run.reports.flatMap { $0.frames(under: lab.info.folder.path) }.compactMap(\.shortLocation)
        XCTAssertTrue(labLines.contains { $0.hasPrefix("Broken.swift") }, "the race is tied to the lab's source: \(labLines)")
        let messages = run.failures.map(\.message)
        XCTAssertTrue(messages.contains { $0.contains("unfiltered") || $0.contains("part of its download") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("was cancelled") }, "\(messages)")
    }

    func testFixedPipelineIsCleanInProcess() throws {
        let lab = try XCTUnwrap(testLabs.lab("photo-pipeline"))
        try LabsTestSupport.requireSolutions(lab)
        let plan = ScenarioPlan(lab: lab.id, variant: "fixed", mode: .scripted, iterations: 2, seed: 3, stopAtFirstDetection: false)
        let outcome = ScenarioDriver.run(lab, plan: plan)
        XCTAssertEqual(outcome.failures, [])
        XCTAssertEqual(outcome.tsanReports, 0)
        XCTAssertEqual(outcome.notes, [], "every scripted pause was reached")
    }
}
