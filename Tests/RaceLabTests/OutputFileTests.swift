import XCTest

@testable import RaceLabHarness

/// Output paths, checked before any work: where a file or a folder of reports would go.
final class OutputFileTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path)
        try? FileManager.default.removeItem(at: scratch)
    }

    func testAFileNeedsAFolderThatIsThere() throws {
        XCTAssertNil(OutputFile.problem(writing: scratch.appendingPathComponent("report.json").path))
        let missing = scratch.appendingPathComponent("no/such")
        XCTAssertEqual(
            OutputFile.problem(writing: missing.appendingPathComponent("report.json").path),
            "the folder '\(missing.path)' does not exist")
        XCTAssertEqual(OutputFile.problem(writing: scratch.path), "'\(scratch.path)' is a folder; give a file name")
    }

    func testAFolderOfReportsIsThereOrHasAParentThatIs() throws {
        XCTAssertNil(OutputFile.problem(writingInto: scratch), "there and writable")
        XCTAssertNil(OutputFile.problem(writingInto: scratch.appendingPathComponent("grades")), "can be made")
        let deep = scratch.appendingPathComponent("no/such/grades")
        XCTAssertEqual(
            OutputFile.problem(writingInto: deep),
            "its parent folder '\(scratch.appendingPathComponent("no/such").path)' does not exist",
            "only the last part of a path is made")
        let file = scratch.appendingPathComponent("summary.csv")
        try Data().write(to: file)
        XCTAssertEqual(OutputFile.problem(writingInto: file), "it is a file, not a folder")
        XCTAssertEqual(
            OutputFile.problem(writingInto: file.appendingPathComponent("grades")),
            "'\(file.path)' is a file, not a folder")
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("no").path))
    }

    /// grade-all's folder of reports, made before any grading: there and empty, or refused.
    func testAFolderOfReportsIsMadeAndLeftEmpty() throws {
        let grades = scratch.appendingPathComponent("class/grades")
        try OutputFile.makeWritableFolder(grades)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: grades.path), [], "the probe is gone")
        let file = scratch.appendingPathComponent("summary.csv")
        try Data().write(to: file)
        XCTAssertThrowsError(try OutputFile.makeWritableFolder(file.appendingPathComponent("grades")))
    }

    func testAReadOnlyFolderIsRefused() throws {
        try XCTSkipIf(geteuid() == 0, "root writes anywhere: a read-only folder cannot be shown")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: scratch.path)
        XCTAssertEqual(OutputFile.problem(writingInto: scratch), "it is not writable")
        XCTAssertEqual(
            OutputFile.problem(writingInto: scratch.appendingPathComponent("grades")),
            "its parent folder '\(scratch.path)' is not writable")
        XCTAssertEqual(
            OutputFile.problem(writing: scratch.appendingPathComponent("r.json").path),
            "the folder '\(scratch.path)' is not writable")
    }
}
