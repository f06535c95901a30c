@testable import RaceLabKit
import XCTest

/// The parent must survive whatever a child does. These children are small shell scripts
/// that misbehave on purpose.
final class ChildRunnerTests: XCTestCase {
    func shell(_ script: String, stallTimeout: Double = 5, outputLimit: Int = 1 << 20) -> ChildOutcome {
        ChildRunner.run(ChildRequest(
            executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script],
            environment: ["PATH": "/usr/bin:/bin"], stallTimeout: stallTimeout, crashGrace: 0.5, outputLimit: outputLimit))
    }

    func testResultLineIsReadFromItsOwnChannel() {
        let outcome = shell(#"echo 'lab chatter'; echo 'RACELAB-RESULT {"iterationsRun":3,"failures":[],"tsanReports":0,"elapsedSeconds":1,"notes":[],"metrics":{},"tsanEnabled":true}'; echo 'WARNING: noise' >&2"#)
        XCTAssertEqual(outcome.ending, .exited(0))
        XCTAssertEqual(outcome.result?.iterationsRun, 3)
        XCTAssertEqual(outcome.otherOutput, ["lab chatter"])
        XCTAssertEqual(outcome.stderr, "WARNING: noise\n")
    }

    func testCrashBySignal() {
        let outcome = shell("echo 'Fatal error: Index out of range' >&2; kill -SEGV $$")
        XCTAssertEqual(outcome.ending, .signaled(SIGSEGV))
        XCTAssertNil(outcome.result)
    }

    func testHangIsKilledAndWhereItWasIsKept() {
        let started = Date()
        let outcome = shell(#"echo 'RACELAB-PROGRESS {"iteration":2,"checkpointHits":7,"threads":[{"threadID":9,"isMainThread":false,"checkpoint":"lock.a","hit":1,"secondsAgo":0}]}'; exec sleep 60"#, stallTimeout: 1)
        XCTAssertEqual(outcome.ending, .killedAfterStall)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the watchdog, not the child, ended it")
        XCTAssertEqual(outcome.lastProgress?.iteration, 2)
        XCTAssertEqual(outcome.lastProgress?.threads.first?.checkpoint, "lock.a")
    }

    func testFailuresSentBeforeAHangAreKept() {
        let outcome = shell(#"echo 'RACELAB-FAILURE {"iteration":1,"message":"thumbnail never finished","file":"/x/Scenario.swift","line":7}'; echo 'RACELAB-PROGRESS {"iteration":1,"checkpointHits":3,"threads":[]}'; exec sleep 60"#, stallTimeout: 1)
        XCTAssertEqual(outcome.ending, .killedAfterStall)
        XCTAssertNil(outcome.result)
        XCTAssertEqual(outcome.streamedFailures.map(\.message), ["thumbnail never finished"])
        XCTAssertEqual(outcome.otherOutput, [], "a failure line is a channel message, not lab chatter")
    }

    func testProgressKeepsAChildAlive() {
        let script = (1...8).map { #"echo 'RACELAB-PROGRESS {"iteration":\#($0),"checkpointHits":0,"threads":[]}'; sleep 0.3;"# }.joined()
        let outcome = shell(script + " exit 0", stallTimeout: 1)
        XCTAssertEqual(outcome.ending, .exited(0), "2.4 s of steady progress is not a hang with a 1 s watchdog")
    }

    func testCrashThatNeverDiesIsKilledAsACrash() {
        let outcome = shell("echo 'ThreadSanitizer:DEADLYSIGNAL' >&2; exec sleep 60", stallTimeout: 30)
        XCTAssertEqual(outcome.ending, .killedAfterCrash)
    }

    func testGarbageAndEndlessOutputAreCapped() {
        let outcome = shell("head -c 3000000 /dev/urandom; head -c 3000000 /dev/urandom >&2; echo 'RACELAB-RESULT {not json'", outputLimit: 100_000)
        XCTAssertEqual(outcome.ending, .exited(0))
        XCTAssertTrue(outcome.stderrTruncated)
        XCTAssertLessThanOrEqual(outcome.stderr.utf8.count, 400_000, "at most the limit (plus UTF-8 repair) is kept")
        XCTAssertNil(outcome.result)
    }

    func testMalformedResultIsReported() {
        let outcome = shell("echo 'RACELAB-RESULT {not json'")
        XCTAssertNil(outcome.result)
        XCTAssertEqual(outcome.malformedLines, ["RACELAB-RESULT {not json"])
    }

    func testMissingExecutable() {
        let outcome = ChildRunner.run(ChildRequest(executable: URL(fileURLWithPath: "/nonexistent/racelab"), arguments: [], environment: [:]))
        guard case .failedToStart = outcome.ending else { return XCTFail("expected failedToStart, got \(outcome.ending)") }
    }

    func testKilledChildLeavesNoProcessBehind() throws {
        let marker = "racelab-orphan-check-\(UInt32.random(in: 0...UInt32.max))"
        _ = shell("exec sleep 60 # \(marker)", stallTimeout: 1)
        let listing = Process()
        listing.executableURL = URL(fileURLWithPath: "/bin/sh")
        listing.arguments = ["-c", "ps -eo args | grep -c '[s]leep 60 # \(marker)' || true"]
        let pipe = Pipe()
        listing.standardOutput = pipe
        try listing.run()
        listing.waitUntilExit()
        let count = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(count.trimmingCharacters(in: .whitespacesAndNewlines), "0")
    }
}
