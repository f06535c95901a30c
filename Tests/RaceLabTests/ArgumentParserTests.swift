import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

final class ArgumentParserTests: XCTestCase {
    let spec = CommandSpec(
        name: "run", arguments: "<lab>", positionals: 0...1, summary: "run a lab",
        options: [
            .value("iterations", "N", "iterations per run"), .value("mode", "M", "which pass"),
            .flag("json", "machine-readable output")
        ],
        details: "exit status: 0 fine.")

    /// Usage, help and errors all come from the one declaration.
    func testUsageAndHelpComeFromTheDeclaration() {
        XCTAssertEqual(spec.usage, "racelab run <lab> [--iterations N] [--mode M] [--json]")
        XCTAssertEqual(spec.valueOptions, ["iterations", "mode"])
        // Another program's arguments come after "--", so the options go before it.
        var wrapper = spec
        wrapper.arguments = "-- PROGRAM [ARGS...]"
        XCTAssertEqual(wrapper.usage, "racelab run [--iterations N] [--mode M] [--json] -- PROGRAM [ARGS...]")
        XCTAssertEqual(spec.flags, ["json"])
        XCTAssertEqual(
            spec.help,
            """
            usage: racelab run <lab> [--iterations N] [--mode M] [--json]

            run a lab

            options:
              --iterations N  iterations per run
              --mode M        which pass
              --json          machine-readable output

            exit status: 0 fine.
            """)
    }

    func testValuesFlagsAndPositionals() throws {
        let parsed = try ParsedArguments(["list-adder", "--iterations", "5", "--mode=stress", "--json"], spec: spec)
        XCTAssertEqual(parsed.positionals, ["list-adder"])
        XCTAssertEqual(try parsed.int("iterations", in: 1...10), 5)
        XCTAssertEqual(try parsed.choice("mode", from: ["scripted", "stress"]), "stress")
        XCTAssertTrue(parsed.has("json"))
        XCTAssertNil(try parsed.int("missing", in: 1...2))
    }

    func testBadInputSaysWhatIsValid() throws {
        XCTAssertThrowsError(try ParsedArguments(["--colour"], spec: spec)) { error in
            XCTAssertEqual(
                (error as? UsageError)?.message,
                "unknown option '--colour' for 'run'; valid: --iterations, --mode, --json")
        }
        XCTAssertThrowsError(try ParsedArguments(["--iterations"], spec: spec)) {
            XCTAssertEqual(($0 as? UsageError)?.message, "--iterations needs a value")
        }
        XCTAssertThrowsError(try ParsedArguments(["a", "b"], spec: spec)) {
            XCTAssertEqual(
                ($0 as? UsageError)?.message,
                "unexpected argument 'b'; usage: racelab run <lab> [--iterations N] [--mode M] [--json]")
        }
        XCTAssertThrowsError(try ParsedArguments(["--json=yes"], spec: spec))
        XCTAssertThrowsError(try ParsedArguments(["--mode", "a", "--mode", "b"], spec: spec))
        let negative = try ParsedArguments(["--iterations", "-3"], spec: spec)
        XCTAssertThrowsError(try negative.int("iterations", in: 1...100)) {
            XCTAssertEqual(($0 as? UsageError)?.message, "--iterations must be a whole number from 1 to 100, not '-3'")
        }
        let mode = try ParsedArguments(["--mode", "fast"], spec: spec)
        XCTAssertThrowsError(try mode.choice("mode", from: ["scripted", "stress"])) {
            XCTAssertEqual(($0 as? UsageError)?.message, "--mode must be one of scripted, stress, not 'fast'")
        }
    }

    func testDoubleDashEndsOptions() throws {
        let parsed = try ParsedArguments(["--", "--json"], spec: spec)
        XCTAssertEqual(parsed.positionals, ["--json"])
        XCTAssertFalse(parsed.has("json"))
    }
}
