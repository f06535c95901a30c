import Foundation
import XCTest

/// `racelab explain` as a user meets it: a file or standard input, text or JSON, exit 0 when it
/// explained (even nothing), 2 with one line when the file cannot be read.
final class ExplainCommandTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RaceLabTests/Fixtures")

    func testExplainsALogFile() throws {
        let result = try LabsTestSupport.runRacelab(["explain", Self.fixtures.appendingPathComponent("lock-order-inversion.log").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("racelab explain: 1 ThreadSanitizer report in this log."), result.stdout)
        XCTAssertTrue(result.stdout.contains("The cycle: M0 -> M1 -> M0"), result.stdout)
        XCTAssertEqual(result.stderr, "")
    }

    func testJSONHasTheReportsAndTheText() throws {
        let result = try LabsTestSupport.runRacelab(["explain", "--json", Self.fixtures.appendingPathComponent("several-reports.log").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((json["reports"] as? [Any])?.count, 3)
        XCTAssertEqual(json["reportCount"] as? Int, 3)
        XCTAssertTrue((json["text"] as? String)?.contains("Report 3 of 3: thread leak") == true)
    }

    func testReadsStandardInputAndSaysWhenThereIsNoReport() throws {
        for arguments in [["explain", "-"], ["explain"]] {
            let process = Process()
            process.executableURL = LabsTestSupport.racelab
            process.arguments = arguments
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            input.fileHandleForWriting.write(Data("just some output\n".utf8))
            try input.fileHandleForWriting.close()
            let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
            XCTAssertTrue(stdout.hasPrefix("racelab explain: no ThreadSanitizer report found in this log."), stdout)
        }
    }

    func testAMissingFileIsOneLineAndStatusTwo() throws {
        let result = try LabsTestSupport.runRacelab(["explain", "/nonexistent/tsan.log"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "racelab: cannot read '/nonexistent/tsan.log': give a file holding a ThreadSanitizer log (a program's standard error), or - for standard input\n")
        XCTAssertEqual(result.stdout, "")
        let directory = try LabsTestSupport.runRacelab(["explain", "/tmp"])
        XCTAssertEqual(directory.status, 2)
        let extra = try LabsTestSupport.runRacelab(["explain", "a.log", "b.log"])
        XCTAssertEqual(extra.status, 2)
        XCTAssertTrue(extra.stderr.contains("usage: racelab explain [FILE|-]"), extra.stderr)
    }
}
