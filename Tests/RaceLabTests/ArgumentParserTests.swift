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

    /// The same command with its options as symbols, read with the symbols it is declared with.
    enum Typed {
        static let iterations = Option.number("iterations", "N", "iterations per run", in: 1...100)
        static let mode = Option<RunMode>.choice("mode", "M", "which pass")
        static let json = Flag("json", "machine-readable output")
        static let spec = CommandSpec(
            name: "run", arguments: "<lab>", positionals: 0...1, summary: "run a lab",
            options: [iterations, mode, json],
            details: "exit status: 0 fine.")
    }

    func testTypedOptionsDeclareTheSameCommand() {
        XCTAssertEqual(Typed.spec.help, spec.help)
        XCTAssertEqual(Typed.spec.usage, spec.usage)
    }

    func testValuesFlagsAndPositionals() throws {
        let parsed = try ParsedArguments(
            ["list-adder", "--iterations", "5", "--mode=stress", "--json"], spec: Typed.spec)
        XCTAssertEqual(parsed.positionals, ["list-adder"])
        XCTAssertEqual(try parsed[Typed.iterations], 5)
        XCTAssertEqual(try parsed[Typed.mode], .stress)
        XCTAssertTrue(parsed[Typed.json])
        XCTAssertTrue(parsed.isGiven(Typed.json))
        XCTAssertEqual(parsed.text(of: Typed.iterations), "5")
        let bare = try ParsedArguments([], spec: Typed.spec)
        XCTAssertNil(try bare[Typed.iterations])
        XCTAssertFalse(bare[Typed.json])
        XCTAssertFalse(bare.isGiven(Typed.mode))
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
        let negative = try ParsedArguments(["--iterations", "-3"], spec: Typed.spec)
        XCTAssertThrowsError(try negative[Typed.iterations]) {
            XCTAssertEqual(($0 as? UsageError)?.message, "--iterations must be a whole number from 1 to 100, not '-3'")
        }
        let mode = try ParsedArguments(["--mode", "fast"], spec: Typed.spec)
        XCTAssertThrowsError(try mode[Typed.mode]) {
            XCTAssertEqual(
                ($0 as? UsageError)?.message, "--mode must be one of scripted, explore, stress, async, not 'fast'")
        }
    }

    /// Each kind of value refused in one line that names the option and what is valid.
    func testTypedValuesSayWhatIsValid() throws {
        let seed = Option.unsigned("seed", "S", "base seed")
        let timeout = Option.seconds("timeout", "SECONDS", "watchdog", in: 1...3600)
        let point = Option.explorationPoint("one point")
        let spec = CommandSpec(name: "run", summary: "run a lab", options: [seed, timeout, point])
        let good = try ParsedArguments(["--seed", "7", "--timeout", "2.5", "--point", "2:3"], spec: spec)
        XCTAssertEqual(try good[seed], 7)
        XCTAssertEqual(try good[timeout], 2.5)
        XCTAssertEqual(try good[point], ExplorationPoint(pause: 2, hit: 3))
        let bad = try ParsedArguments(["--seed", "-1", "--timeout", "0", "--point", "x"], spec: spec)
        XCTAssertThrowsError(try bad[seed]) {
            XCTAssertEqual(
                ($0 as? UsageError)?.message, "--seed must be a whole number from 0 to \(UInt64.max), not '-1'")
        }
        XCTAssertThrowsError(try bad[timeout]) {
            XCTAssertEqual(
                ($0 as? UsageError)?.message, "--timeout must be a number of seconds from 1 to 3600, not '0'")
        }
        XCTAssertThrowsError(try bad[point]) {
            XCTAssertEqual(
                ($0 as? UsageError)?.message, "--point must be PAUSE:HIT (two whole numbers from 1), not 'x'")
        }
    }

    func testDoubleDashEndsOptions() throws {
        let parsed = try ParsedArguments(["--", "--json"], spec: Typed.spec)
        XCTAssertEqual(parsed.positionals, ["--json"])
        XCTAssertFalse(parsed[Typed.json])
    }
}
