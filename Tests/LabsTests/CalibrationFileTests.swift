import Foundation
import LabCatalog
import RaceLabGrading
import XCTest

/// The stored stress calibration must match the labs as they are: a lab whose Scenario.swift or
/// Broken*.swift changed since it was measured is calibrated again on the fly by every
/// `racelab check` and `grade` (slow, and each grade then rests on a fresh, smaller sample).
final class CalibrationFileTests: XCTestCase {
    func testEveryLabHasACurrentCalibration() throws {
        let file = try XCTUnwrap(
            CalibrationFile.read(packageAt: LabsTestSupport.packageRoot), "Grading/calibration.json is missing")
        for lab in testLabs.labs {
            XCTAssertNotNil(
                file.current(for: lab.lab),
                "\(lab.id): Grading/calibration.json was measured on other code; run `make calibrate` (or racelab calibrate --labs \(lab.id))"
            )
        }
    }
}
