import Foundation
import RaceLabHarness
import XCTest

/// The runner of trusted tools (swift build, swiftc): merged, capped output and a hard deadline.
final class ToolProcessTests: XCTestCase {
    let shell = URL(fileURLWithPath: "/bin/sh")

    func testOutputAndErrorAreMergedAndTheStatusKept() {
        let result = ToolProcess(
            executable: shell, arguments: ["-c", "echo out; echo err >&2; exit 3"], timeout: 30, outputLimit: 1 << 20
        ).run()
        XCTAssertEqual(result.status, 3)
        XCTAssertFalse(result.timedOut)
        XCTAssertTrue(result.output.contains("out") && result.output.contains("err"), result.output)
    }

    func testEndlessOutputIsCapped() {
        let result = ToolProcess(
            executable: shell, arguments: ["-c", "head -c 3000000 /dev/zero | tr '\\0' x"], timeout: 30,
            outputLimit: 1000
        ).run()
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.output.utf8.count, 1000)
    }

    /// What a tool leaves in its temporary folder (SwiftPM leaves a folder for every build) is
    /// removed with it: the folder is the tool's own, not the caller's.
    func testATemporaryFolderOfItsOwnIsRemovedAfterIt() {
        let result = ToolProcess(
            executable: shell, arguments: ["-c", "mkdir \"$TMPDIR/TemporaryDirectory.x\" && echo \"$TMPDIR\""],
            timeout: 30, outputLimit: 1 << 16
        ).run()
        XCTAssertEqual(result.status, 0, result.output)
        let folder = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(URL(fileURLWithPath: folder).lastPathComponent.hasPrefix("racelab-tool-"), folder)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "\(folder) left behind")
    }

    /// A tool past its deadline is killed with what it started (its process group), promptly.
    func testADeadlineKillsTheToolAndItsChildren() {
        let started = Date()
        let result = ToolProcess(
            executable: shell, arguments: ["-c", "sleep 30 & sleep 30"], timeout: 0.5, outputLimit: 1000
        ).run()
        XCTAssertTrue(result.timedOut)
        XCTAssertEqual(result.status, -1)
        XCTAssertLessThan(
            Date().timeIntervalSince(started), 15, "the read of its output does not wait for the orphaned sleep")
    }

    func testAToolThatCannotStartSaysSo() {
        let result = ToolProcess(
            executable: URL(fileURLWithPath: "/nonexistent/tool"), arguments: [], timeout: 5, outputLimit: 1000
        ).run()
        XCTAssertEqual(result.status, -1)
        XCTAssertTrue(result.output.hasPrefix("cannot run /nonexistent/tool"), result.output)
    }
}

final class BackgroundResultTests: XCTestCase {
    func testTheValueIsWorkedOutBesideTheCaller() {
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let result = BackgroundResult { () -> [String] in
            started.signal()
            proceed.wait()  // the work cannot end before the caller has gone on
            return ["kit tampered"]
        }
        XCTAssertEqual(started.wait(timeout: .now() + 5), .success, "the work started without waiting for `value`")
        proceed.signal()
        XCTAssertEqual(result.value, ["kit tampered"])
        XCTAssertEqual(result.value, ["kit tampered"], "asked twice, the same value")
    }
}
