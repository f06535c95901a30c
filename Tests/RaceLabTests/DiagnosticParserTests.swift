import XCTest

@testable import CompilerCheck

/// The parser on real swiftc output (Fixtures/README.md, "swiftc diagnostics").
final class DiagnosticParserTests: XCTestCase {
    func testTypeCheckErrorWithItsNoteAndGroup() throws {
        let diagnostics = DiagnosticParser.parse(try Fixture.text("swiftc-list-adder-broken-swift6.txt"))
        XCTAssertEqual(diagnostics.map(\.severity), [.error, .note])
        let error = diagnostics[0]
        XCTAssertEqual(error.file, "/work/racelab/Labs/ListAdder/Broken.swift")
        XCTAssertEqual(error.line, 37)
        XCTAssertEqual(error.column, 25)
        XCTAssertEqual(
            error.message, "capture of 'self' with non-Sendable type 'ListAdderBroken' in a '@Sendable' closure")
        XCTAssertEqual(error.group, "SendableClosureCaptures")
        XCTAssertEqual(
            error.summary,
            "Broken.swift:37: capture of 'self' with non-Sendable type 'ListAdderBroken' in a '@Sendable' closure")
        XCTAssertEqual(diagnostics[1].message, "class 'ListAdderBroken' does not conform to the 'Sendable' protocol")
        XCTAssertNil(diagnostics[1].group)
    }

    func testTwoErrorsAtOnePlaceOneWithoutAGroup() throws {
        let errors = DiagnosticParser.parse(try Fixture.text("swiftc-off-main-dealloc-broken-swift6.txt")).filter {
            $0.severity == .error
        }
        XCTAssertEqual(errors.count, 2)
        XCTAssertEqual(errors.map(\.line), [24, 24])
        XCTAssertEqual(errors.map(\.group), ["SendableClosureCaptures", nil])
        XCTAssertEqual(
            errors[1].message, "capture of 'self' with non-Sendable type 'OffMainDeallocBroken' in an isolated closure")
    }

    /// Region-based isolation speaks after type checking (on SIL): same format.
    func testSendingRisksDataRaceFromSIL() throws {
        let diagnostics = DiagnosticParser.parse(try Fixture.text("swiftc-mandelbrot-fixed-swift6.txt"))
        let errors = diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(
            errors.map(\.message),
            ["sending 'self' risks causing data races", "sending 'picture' risks causing data races"])
        XCTAssertEqual(Set(errors.map(\.group)), ["SendingRisksDataRace"])
        XCTAssertEqual(errors.map(\.shortLocation), ["FixedGCD.swift:34", "FixedGCD.swift:34"])
        XCTAssertEqual(
            diagnostics.filter { $0.severity == .note }.count, 2, "source excerpts and carets are not diagnostics")
    }

    func testWarningAmongErrors() throws {
        let diagnostics = DiagnosticParser.parse(try Fixture.text("swiftc-mandelbrot-exercise-swift6.txt"))
        let warnings = diagnostics.filter { $0.severity == .warning }
        XCTAssertEqual(warnings.count, 1)
        XCTAssertEqual(warnings[0].shortLocation, "Exercise.swift:3")
        XCTAssertEqual(
            warnings[0].message,
            "add '@preconcurrency' to treat 'Sendable'-related errors from module 'Mandelbrot' as warnings")
        XCTAssertEqual(diagnostics.filter { $0.severity == .error }.count, 2)
        XCTAssertEqual(DiagnosticParser.parse(try Fixture.text("swiftc-mandelbrot-exercise-swift5.txt")), [])
    }

    func testPlacelessAndNonDiagnosticLines() {
        let output = """
            <unknown>:0: error: unable to load standard library for target 'x86_64-unknown-linux-gnu'
            error: no input files
            /tmp/a b/Weird: name.swift:3:1: warning: odd but real
                print("x:1: error: not a diagnostic")
               ^
            [#SendableClosureCaptures]: <https://docs.swift.org/compiler/documentation/diagnostics/sendable-closure-captures>
            """
        let diagnostics = DiagnosticParser.parse(output)
        XCTAssertEqual(diagnostics.count, 3)
        XCTAssertNil(diagnostics[0].file)
        XCTAssertEqual(diagnostics[0].message, "unable to load standard library for target 'x86_64-unknown-linux-gnu'")
        XCTAssertEqual(
            diagnostics[1],
            CompilerDiagnostic(severity: .error, file: nil, line: nil, column: nil, message: "no input files"))
        XCTAssertEqual(diagnostics[2].file, "/tmp/a b/Weird: name.swift")
        XCTAssertEqual(diagnostics[2].line, 3)
    }

    func testMissingModule() throws {
        let diagnostics = DiagnosticParser.parse(try Fixture.text("swiftc-missing-module.txt"))
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertEqual(diagnostics[0].summary, "Exercise.swift:2: missing required module 'CRaceLabSupport'")
    }
}
