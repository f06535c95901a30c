import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabHarness
import RaceLabReports
import XCTest

/// Real children say where their time went (`racelab run --profile`), and the commands show it.
final class RunProfileChildTests: XCTestCase {
    func run(_ variant: String) throws -> RunVerdict {
        let lab = try XCTUnwrap(testLabs.lab("list-adder"))
        let settings = RunSettings(executable: LabsTestSupport.child, iterations: 1, runs: 1, seed: 3)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: variant)), mode: .scripted, settings: settings)
        return try XCTUnwrap(outcome.runs.first)
    }

    /// The parent's figures and the child's agree: the story lies inside the child's life.
    func assertWhole(_ profile: RunProfile, _ name: String) {
        XCTAssertEqual(profile.children, 1, name)
        XCTAssertGreaterThan(profile.storySeconds, 0, name)
        XCTAssertGreaterThan(profile.startSeconds, 0, name)
        XCTAssertGreaterThanOrEqual(profile.wallSeconds, profile.storySeconds, name)
        XCTAssertGreaterThanOrEqual(
            profile.wallSeconds + 0.001, profile.startSeconds + profile.storySeconds + profile.endSeconds, name)
        XCTAssertGreaterThan(profile.cpuSeconds, 0, name)
    }

    /// A child that sent its result: its own figures of the story.
    func testAFixedRunReportsItsStoryFromInside() throws {
        let verdict = try run("fixed")
        XCTAssertFalse(verdict.detected)
        let profile = try XCTUnwrap(verdict.profile)
        assertWhole(profile, "fixed")
        XCTAssertEqual(profile.childrenWithoutStory, 0, "it sent its result")
        XCTAssertGreaterThan(profile.endSeconds, 0)
        XCTAssertGreaterThan(profile.harness.waits, 0, "the scripted story waits at its pause")
        XCTAssertGreaterThan(profile.harness.heldThreadSeconds, 0, "a thread was paused at the checkpoint")
        XCTAssertLessThanOrEqual(profile.harness.quietSeconds + profile.harness.waitSeconds, profile.storySeconds)
    }

    /// The broken variant dies in its story (its index goes out of range): the parent's figures
    /// alone, the story counted from the first heartbeat.
    func testABrokenRunThatCrashesStillHasAProfile() throws {
        let verdict = try run("broken")
        XCTAssertTrue(verdict.detected)
        let profile = try XCTUnwrap(verdict.profile)
        assertWhole(profile, "broken")
    }

    func testRunPrintsTheTableAfterItsOwnOutput() throws {
        let result = try LabsTestSupport.runRacelab([
            "run", "list-adder", "--variant", "fixed", "--mode", "scripted", "--iterations", "1", "--seed", "4",
            "--profile"
        ])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let lines = result.stdout.components(separatedBy: "\n")
        let met = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("All expectations met") }, result.stdout)
        let header = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("LAB ") && $0.contains("PREEMPT") })
        XCTAssertGreaterThan(header, met, "after the normal output")
        // One row per fixed variant (the lab's Swift 6 fix is one too), the slowest first.
        let rows = lines[(header + 1)...].prefix { !$0.hasPrefix("TOTAL") }
        XCTAssertTrue(
            rows.contains { $0.split(separator: " ").prefix(4) == ["list-adder", "fixed", "scripted", "1"] },
            result.stdout)
        XCTAssertTrue(rows.allSatisfy { $0.hasPrefix("list-adder ") }, result.stdout)
        let total = header + 1 + rows.count
        XCTAssertTrue(lines[total].hasPrefix("TOTAL"), result.stdout)
        XCTAssertTrue(lines[total + 1].hasPrefix("SHARE OF WALL"), result.stdout)
    }

    func testBenchProfileRefusesBadInputBeforeAnyWork() throws {
        let cases: [([String], String)] = [
            (["--runs", "0"], "racelab: --runs must be a whole number from 1 to 10000, not '0'\n"),
            (["--seed", "x"], "racelab: --seed must be a whole number from 0 to 18446744073709551615, not 'x'\n"),
            (["--load", "2"], "racelab: bench profile takes --runs, --seed and --jobs only, not --load\n"),
            (["--json"], "racelab: bench profile takes --runs, --seed and --jobs only, not --json\n"),
            (
                ["extra"],
                "racelab: bench profile takes no paths ('extra'); "
                    + "usage: racelab bench profile [--runs N] [--seed S] [--jobs N]\n"
            )
        ]
        for (arguments, message) in cases {
            let started = Date()
            let result = try LabsTestSupport.runRacelab(["bench", "profile"] + arguments)
            XCTAssertEqual(result.status, 2, arguments.joined(separator: " "))
            XCTAssertEqual(result.stderr, message)
            XCTAssertEqual(result.stdout, "")
            XCTAssertLessThan(Date().timeIntervalSince(started), 20, "no child was run")
        }
    }
}
