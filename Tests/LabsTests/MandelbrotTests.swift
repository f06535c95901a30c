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

/// The mandelbrot lab beyond the generic checks: the broken view is caught by both detectors
/// for the reason the lesson gives, and both remedies are registered.
final class MandelbrotTests: XCTestCase {
    func testBrokenViewDrawsATornFrameAndTSanSeesTheSharedBitmap() throws {
        let lab = try XCTUnwrap(testLabs.lab("mandelbrot"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 11)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertTrue(run.fired(.tsan), "the render thread writes the bitmap draw() reads: \(run.testDescription)")
        XCTAssertTrue(run.fired(.invariant), run.testDescription)
        XCTAssertTrue(run.failures.contains { $0.message.contains("torn") }, run.testDescription)
        let labLines = run.reports.flatMap { $0.frames(under: lab.info.folder.path) }.compactMap(\.shortLocation)
        XCTAssertTrue(
            labLines.contains { $0.hasPrefix("Broken.swift") }, "the race is tied to the lab's source: \(labLines)")
    }

    func testEveryScriptedPauseIsReachedByEveryRemedy() throws {
        let lab = try XCTUnwrap(testLabs.lab("mandelbrot"))
        try LabsTestSupport.requireSolutions(lab)
        for variant in ["fixed", "fixed-gcd", "fixed-task"] {
            let plan = ScenarioPlan(
                lab: lab.id, variant: variant, mode: .scripted, iterations: 1, seed: 4, stopAtFirstDetection: false)
            let outcome = ScenarioDriver.run(lab, plan: plan)
            XCTAssertEqual(outcome.failures, [], variant)
            XCTAssertEqual(outcome.notes, [], "\(variant): every scripted pause was reached")
            XCTAssertEqual(outcome.metrics["renders started after the view went away"], 0, variant)
        }
    }

    func testEveryRemedyIsRegisteredAsAFixedVariant() throws {
        let lab = try XCTUnwrap(testLabs.lab("mandelbrot"))
        try LabsTestSupport.requireSolutions(lab)
        let fixed = lab.variants.filter { $0.kind == .fixed }.map(\.name)
        XCTAssertEqual(fixed, ["fixed", "fixed-gcd", "fixed-task"])
    }
}
