@testable import RaceLabKit
import XCTest

/// A child's result counts only when signed with the key the parent gave it on stdin; a line
/// printed by lab code (unsigned, or signed with anything else) is a forgery: never a pass.
final class ChannelAuthenticationTests: XCTestCase {
    let key: [UInt8] = Array(0..<32)
    let clean = #"{"elapsedSeconds":1,"failures":[],"iterationsRun":3,"metrics":{},"notes":[],"tsanEnabled":true,"tsanReports":0}"#

    func shell(_ script: String, key: [UInt8]?) -> ChildOutcome {
        var request = ChildRequest(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script],
                                   environment: ["PATH": "/usr/bin:/bin"], stallTimeout: 5, crashGrace: 0.5)
        request.channelKey = key
        return ChildRunner.run(request)
    }

    func testKeyArrivesOnStdinAndASignedLineIsAccepted() {
        let line = ChannelAuthentication.line(tag: ChildChannel.resultTag, payload: clean, key: key)
        let outcome = shell("read k; echo \"got $k\" >&2; echo '\(line)'", key: key)
        XCTAssertEqual(outcome.stderr, "got \(SHA256.hexString(key))\n")
        XCTAssertEqual(outcome.result?.iterationsRun, 3)
        XCTAssertEqual(outcome.forgedResultLines, [])
    }

    func testUnsignedLineIsAForgeryWhenAKeyWasGiven() {
        let outcome = shell("echo 'RACELAB-RESULT \(clean)'", key: key)
        XCTAssertNil(outcome.result)
        XCTAssertEqual(outcome.forgedResultLines.count, 1)
        let plan = ScenarioPlan(lab: "l", variant: "exercise", mode: .scripted, iterations: 3, seed: 1)
        let verdict = VerdictBuilder.verdict(plan: plan, kind: .exercise, child: outcome, reproduce: "r")
        XCTAssertTrue(verdict.harnessError?.contains("forged") == true, verdict.harnessError ?? "no error")
        XCTAssertFalse(VariantOutcome(lab: "l", variant: "exercise", kind: .exercise, mode: .scripted, runs: [verdict]).met)
    }

    func testWrongKeyOrAlteredPayloadIsAForgery() {
        let otherKey = ChannelAuthentication.line(tag: ChildChannel.resultTag, payload: clean, key: Array(repeating: 7, count: 32))
        XCTAssertNil(shell("echo '\(otherKey)'", key: key).result)
        let signed = ChannelAuthentication.line(tag: ChildChannel.resultTag, payload: clean, key: key)
        let altered = signed.replacingOccurrences(of: #""iterationsRun":3"#, with: #""iterationsRun":9"#)
        let outcome = shell("echo '\(altered)'", key: key)
        XCTAssertNil(outcome.result)
        XCTAssertEqual(outcome.forgedResultLines.count, 1)
    }

    func testAForgedLineBesideTheGenuineOneStillFails() {
        let genuine = ChannelAuthentication.line(tag: ChildChannel.resultTag, payload: clean, key: key)
        let outcome = shell("echo 'RACELAB-RESULT \(clean)'; echo '\(genuine)'", key: key)
        XCTAssertNotNil(outcome.result)
        let plan = ScenarioPlan(lab: "l", variant: "exercise", mode: .scripted, iterations: 3, seed: 1)
        let verdict = VerdictBuilder.verdict(plan: plan, kind: .exercise, child: outcome, reproduce: "r")
        XCTAssertNotNil(verdict.harnessError, "lab code tried to forge a result: the run is not clean")
    }

    func testWithoutAKeyUnsignedLinesWorkAsBefore() {
        XCTAssertEqual(shell("echo 'RACELAB-RESULT \(clean)'", key: nil).result?.iterationsRun, 3)
    }

    func testSplitAndVerify() {
        let line = ChannelAuthentication.line(tag: "T ", payload: "{\"a\":1}", key: key)
        let (signature, payload) = ChannelAuthentication.split(line.dropFirst(2))
        XCTAssertEqual(payload, "{\"a\":1}")
        XCTAssertTrue(ChannelAuthentication.isValid(signature: signature!, of: String(payload), key: key))
        XCTAssertFalse(ChannelAuthentication.isValid(signature: "zz", of: String(payload), key: key))
        XCTAssertEqual(ChannelAuthentication.newKey().count, 32)
        XCTAssertNotEqual(ChannelAuthentication.newKey(), ChannelAuthentication.newKey())
    }
}
