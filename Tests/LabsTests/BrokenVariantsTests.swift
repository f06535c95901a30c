import LabCatalog
import RaceLabKit
import XCTest

/// Every broken variant, in its own child process, scripted mode: caught in every run, by at
/// least one of the detectors its lab expects.
final class BrokenVariantsTests: XCTestCase {
    func testEveryBrokenVariantIsDetectedInEveryScriptedRun() {
        for lab in labCatalog.labs {
            for variant in lab.variants where variant.kind == .broken {
                let settings = RunSettings(executable: LabsTestSupport.racelab, runs: 3, seed: 77)
                let outcome = LabRunner.run(lab, variant: variant, mode: .scripted, settings: settings)
                XCTAssertTrue(outcome.met, TableReporter(colour: false).render([outcome]))
                for run in outcome.runs {
                    let fired = Set(run.detections.map(\.detector))
                    XCTAssertFalse(fired.isDisjoint(with: lab.info.expectedDetectors),
                                   "\(lab.id) seed \(run.seed): fired \(fired), expected one of \(lab.info.expectedDetectors)")
                }
            }
        }
    }

    func testListAdderBrokenIsCaughtByTSanAtItsOwnLines() throws {
        let lab = try XCTUnwrap(labCatalog.lab("list-adder"))
        let settings = RunSettings(executable: LabsTestSupport.racelab, runs: 1, seed: 5)
        let outcome = LabRunner.run(lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertTrue(run.fired(.tsan))
        XCTAssertTrue(run.fired(.crash), "removing items mid-sum runs the loop past the end")
        let report = try XCTUnwrap(run.reports.first)
        let labLines = report.frames(under: lab.info.folder.path).compactMap(\.shortLocation)
        XCTAssertTrue(labLines.contains("Broken.swift:37"), "the racing read is tied to the lab's source: \(labLines)")
    }
}
