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

/// reader-writer: the broken card is caught by both detectors the curriculum promises.
final class ReaderWriterTests: XCTestCase {
    func testBrokenIsCaughtByTSanAndByATornReadWhileTheRenameIsHeld() throws {
        let lab = try XCTUnwrap(testLabs.lab("reader-writer"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 41)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertTrue(run.fired(.tsan), TableReporter(colour: false).render([outcome]))
        XCTAssertTrue(run.fired(.invariant), TableReporter(colour: false).render([outcome]))
        XCTAssertGreaterThan(
            run.metrics["torn reads while held"] ?? 0, 0, "the reader looked while the rename was half done")
        let lines = Set(run.reports.flatMap { $0.frames(under: lab.info.folder.path) }.compactMap(\.shortLocation))
        XCTAssertTrue(lines.contains("Broken.swift:22"), "the rename's write of the first name: \(lines)")
        XCTAssertTrue(lines.contains("Broken.swift:29"), "the reader's sync block: \(lines)")
    }
}
