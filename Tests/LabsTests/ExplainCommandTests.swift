import Foundation
import XCTest

/// `racelab explain` as a user meets it: a file or standard input, text or JSON, exit 0 when it
/// explained a report, 1 when there was none, 2 with one line when the input cannot be read.
final class ExplainCommandTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RaceLabTests/Fixtures")

    func testExplainsALogFile() throws {
        let result = try LabsTestSupport.runRacelab([
            "explain", Self.fixtures.appendingPathComponent("lock-order-inversion.log").path
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("racelab explain: 1 ThreadSanitizer report in this log."), result.stdout)
        XCTAssertTrue(result.stdout.contains("The cycle: M0 -> M1 -> M0"), result.stdout)
        XCTAssertEqual(result.stderr, "")
    }

    func testJSONHasTheReportsAndTheText() throws {
        let result = try LabsTestSupport.runRacelab([
            "explain", "--json", Self.fixtures.appendingPathComponent("several-reports.log").path
        ])
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
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            input.fileHandleForWriting.write(Data("just some output\n".utf8))
            try input.fileHandleForWriting.close()
            let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 1, "no report found")
            XCTAssertTrue(stdout.hasPrefix("racelab explain: no ThreadSanitizer report found in this log."), stdout)
        }
    }

    func testAMissingFileIsOneLineAndStatusTwo() throws {
        let result = try LabsTestSupport.runRacelab(["explain", "/nonexistent/tsan.log"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(
            result.stderr,
            "racelab: cannot read '/nonexistent/tsan.log' (No such file or directory): give a ThreadSanitizer log as text (a program's standard error) in a file, or - for standard input\n"
        )
        XCTAssertEqual(result.stdout, "")
        let directory = try LabsTestSupport.runRacelab(["explain", "/tmp"])
        XCTAssertEqual(directory.status, 2)
        XCTAssertTrue(
            directory.stderr.hasSuffix(
                "(it is a folder): give a ThreadSanitizer log as text (a program's standard error) in a file, or - for standard input\n"
            ), directory.stderr)
        let binary = try LabsTestSupport.runRacelab(["explain", "/dev/zero"])
        XCTAssertEqual(binary.status, 2, "an endless binary stream ends at the first check")
        XCTAssertEqual(binary.stderr.split(separator: "\n").count, 1)
        XCTAssertTrue(binary.stderr.contains("not a text log"), binary.stderr)
        let extra = try LabsTestSupport.runRacelab(["explain", "a.log", "b.log"])
        XCTAssertEqual(extra.status, 2)
        XCTAssertTrue(extra.stderr.contains("usage: racelab explain [FILE|-]"), extra.stderr)
    }

    func testStacksAndTheKindsInJSON() throws {
        let path = Self.fixtures.appendingPathComponent("mutex-destroy-locked.log").path
        let stacks = try LabsTestSupport.runRacelab(["explain", "--stacks", path])
        XCTAssertEqual(stacks.status, 0, stacks.stderr)
        XCTAssertTrue(stacks.stdout.contains("#0 pthread_mutex_destroy (ThreadSanitizer runtime)"), stacks.stdout)
        XCTAssertTrue(stacks.stdout.contains("#1 destroy_locked_mutex, destroy_locked.c:21"), stacks.stdout)
        let json = try LabsTestSupport.runRacelab(["explain", "--json", path])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["kinds"] as? [String: Int], ["destroy of a locked mutex": 1])
        let help = try LabsTestSupport.runRacelab(["help", "explain"])
        XCTAssertTrue(help.stdout.contains("--stacks"), help.stdout)
    }
}
