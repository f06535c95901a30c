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

/// The racelab binary as a user meets it: bad input is one clear line and exit status 2.
final class CommandLineTests: XCTestCase {
    func testUnknownLabListsTheValidOnes() throws {
        let result = try LabsTestSupport.runRacelab(["run", "nosuchlab"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("racelab: unknown lab 'nosuchlab'; valid: list-adder"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(result.stdout, "")
    }

    func testBadNumbersAndChoices() throws {
        let negative = try LabsTestSupport.runRacelab(["run", "list-adder", "--iterations", "-3"])
        XCTAssertEqual(negative.status, 2)
        XCTAssertEqual(negative.stderr, "racelab: --iterations must be a whole number from 1 to 1000000, not '-3'\n")
        let variant = try LabsTestSupport.runRacelab(["run", "list-adder", "--variant", "best"])
        XCTAssertEqual(variant.status, 2)
        XCTAssertTrue(variant.stderr.contains("valid: broken, fixed, exercise, all"), variant.stderr)
        let mode = try LabsTestSupport.runRacelab(["run", "list-adder", "--mode", "fast"])
        XCTAssertEqual(mode.status, 2)
        let command = try LabsTestSupport.runRacelab(["frobnicate"])
        XCTAssertEqual(command.status, 2)
        XCTAssertEqual(command.stderr, "racelab: unknown command 'frobnicate'; valid: list, run, report, explain, check, hint, progress, grade, grade-all, export, calibrate, help\n")
    }

    func testListAndJSONRun() throws {
        let list = try LabsTestSupport.runRacelab(["list"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.stdout.contains("list-adder"))
        // The fixed variant when solutions ship; in a student kit, the broken one (caught, as expected).
        let variant = testLabs.lab("list-adder").map(LabsTestSupport.shipsSolutions) == true ? "fixed" : "broken"
        let run = try LabsTestSupport.runRacelab(["run", "list-adder", "--variant", variant, "--mode", "scripted", "--json", "--seed", "3"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["allExpectationsMet"] as? Bool, true)
        XCTAssertEqual(json["seed"] as? Int, 3)
    }

    func testUnsolvedExerciseFailsItsExpectation() throws {
        let run = try LabsTestSupport.runRacelab(["run", "list-adder", "--variant", "exercise", "--mode", "scripted", "--seed", "9"])
        // The exercise ships as a copy of the broken code; once a student fixes it this flips to 0.
        if run.status == 1 {
            XCTAssertTrue(run.stdout.contains("FAIL list-adder exercise (scripted) is NOT clean: lab list-adder, variant exercise, seed 9."), run.stdout)
            XCTAssertTrue(run.stdout.contains("racelab run list-adder --variant exercise --mode scripted --iterations 3 --seed 9"), run.stdout)
        } else {
            XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        }
    }
}

final class ReportCommandTests: XCTestCase {
    func testJSONRunBecomesAnHTMLReport() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let html = directory.appendingPathComponent("run.html").path
        let run = try LabsTestSupport.runRacelab(["run", "list-adder", "--variant", "broken", "--seed", "4", "--json", "--html", html])
        XCTAssertEqual(run.status, 0, run.stderr)
        let saved = directory.appendingPathComponent("run.json")
        try Data(run.stdout.utf8).write(to: saved)
        let again = directory.appendingPathComponent("again.html").path
        let report = try LabsTestSupport.runRacelab(["report", saved.path, "--html", again])
        XCTAssertEqual(report.status, 0, report.stderr)
        let first = try String(contentsOfFile: html, encoding: .utf8)
        XCTAssertTrue(first.contains("<svg"), "the run was traced for the timeline")
        XCTAssertEqual(try String(contentsOfFile: again, encoding: .utf8), first)
        let missing = try LabsTestSupport.runRacelab(["report", "/nonexistent.json", "--html", again])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "racelab: cannot read '/nonexistent.json': give the file written by racelab run --json\n")
    }
}
