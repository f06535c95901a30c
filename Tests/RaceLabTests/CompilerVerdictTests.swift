import LabKit
import XCTest

@testable import CompilerCheck

/// How Swift 5 and Swift 6 output become a result, and when a stored result still stands.
final class CompilerVerdictTests: XCTestCase {
    var root: URL!

    /// A package folder with a Mandelbrot lab whose files are placeholders: the fixtures' paths
    /// (/work/racelab/...) are moved into it.
    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-compiler-\(UUID().uuidString)")
        let lab = root.appendingPathComponent("Labs/Mandelbrot")
        try FileManager.default.createDirectory(at: lab, withIntermediateDirectories: true)
        for name in [
            "Scenario.swift", "Broken.swift", "Exercise.swift", "Fixed.swift", "FixedGCD.swift", "FixedSwift6.swift",
            "README.md"
        ] {
            try Data("// \(name)\n".utf8).write(to: lab.appendingPathComponent(name))
        }
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: root) }

    func sources(_ part: LabPart) throws -> LabModuleSources {
        try XCTUnwrap(
            LabModuleSources(lab: "mandelbrot", folder: root.appendingPathComponent("Labs/Mandelbrot"), part: part))
    }

    func fixture(_ name: String) throws -> [CompilerDiagnostic] {
        DiagnosticParser.parse(try Fixture.text(name).replacingOccurrences(of: "/work/racelab", with: root.path))
    }

    func judge(_ part: LabPart, swift5: (Int32, [CompilerDiagnostic]), swift6: (Int32, [CompilerDiagnostic])) throws
        -> CompilerCheckResult
    {
        let sources = try sources(part)
        return try CompilerVerdict.judge(
            sources, swift5: swift5, swift6: swift6, digest: try XCTUnwrap(sources.digest),
            compiler: "Swift version 6.3.1 (swift-6.3.1-RELEASE)", measuredAt: "2026-11-23T00:00:00Z")
    }

    func testSourcesMirrorPackageSwift() throws {
        let fixed = try sources(.fixed)
        XCTAssertEqual(fixed.files, ["Fixed.swift", "FixedGCD.swift"])
        XCTAssertEqual(fixed.moduleName, "MandelbrotSolutions")
        XCTAssertEqual(fixed.relativePaths, ["Labs/Mandelbrot/Fixed.swift", "Labs/Mandelbrot/FixedGCD.swift"])
        // The Swift 6 fix is a module of its own (Swift 6 mode), not one of the fixes' files.
        let swift6 = try sources(.swift6)
        XCTAssertEqual(swift6.files, ["FixedSwift6.swift"])
        XCTAssertEqual(swift6.moduleName, "MandelbrotSwift6Solutions")
        XCTAssertEqual(try sources(.broken).moduleName, "MandelbrotBroken", "never the lab module, which it imports")
        XCTAssertEqual(
            try sources(.broken).moduleArguments, ["-Xfrontend", "-import-module", "-Xfrontend", "Mandelbrot"])
        XCTAssertEqual(try sources(.exercise).moduleArguments, ["-enable-upcoming-feature", "MemberImportVisibility"])
        // A row's part: a grading-corpus fix has none; a fix built in Swift 6 mode is the Swift 6 part.
        XCTAssertNil(LabPart(Lab.Variant(kind: .validFix, name: "valid-lock")))
        XCTAssertEqual(LabPart(Lab.Variant(kind: .fixed, name: "fixed")), .fixed)
        XCTAssertEqual(LabPart(Lab.Variant(kind: .fixed, name: "fixed-actor", languageMode: .swift6)), .swift6)
    }

    func testRejectedWithNewWarning() throws {
        let result = try judge(
            .exercise, swift5: (0, try fixture("swiftc-mandelbrot-exercise-swift5.txt")),
            swift6: (1, try fixture("swiftc-mandelbrot-exercise-swift6.txt")))
        XCTAssertEqual(result.status, .rejected)
        XCTAssertEqual(result.errors, 2)
        XCTAssertEqual(result.newWarnings, 1)
        XCTAssertEqual(
            result.diagnostics.map(\.severity), [.error, .error, .warning],
            "errors first, then the new warnings; no notes")
        XCTAssertEqual(result.first?.file, "Labs/Mandelbrot/Exercise.swift", "paths as the package names them")
        XCTAssertEqual(
            result.summary,
            "rejected, 2 errors: Exercise.swift:29: capture of 'self' with non-Sendable type 'MandelbrotExercise' in a '@Sendable' closure"
        )
        XCTAssertEqual(result.compilerName, "Swift 6.3.1")
    }

    func testFirstDiagnosticInReadingOrder() throws {
        let result = try judge(.fixed, swift5: (0, []), swift6: (1, try fixture("swiftc-mandelbrot-fixed-swift6.txt")))
        XCTAssertEqual(result.status, .rejected)
        XCTAssertEqual(result.first?.summary, "FixedGCD.swift:34: sending 'self' risks causing data races")
        XCTAssertEqual(result.first?.group, "SendingRisksDataRace")
    }

    func testWarningsOnlyAndWarningsSwift5AlsoGives() throws {
        let warning = try fixture("swiftc-mandelbrot-exercise-swift6.txt").filter { $0.severity == .warning }
        XCTAssertEqual(try judge(.exercise, swift5: (0, []), swift6: (0, warning)).status, .warns)
        XCTAssertEqual(
            try judge(.exercise, swift5: (0, []), swift6: (0, warning)).summary,
            "compiles with 1 warning: Exercise.swift:3: add '@preconcurrency' to treat 'Sendable'-related errors from module 'Mandelbrot' as warnings"
        )
        let old = try judge(.exercise, swift5: (0, warning), swift6: (0, warning))
        XCTAssertEqual(old.status, .accepted, "a warning Swift 5 mode gives too is not Swift 6's")
        XCTAssertEqual(old.summary, "accepted: Swift 6 compiles it")
    }

    /// Errors count only when Swift 5 mode compiles the same code: otherwise they are not Swift 6's.
    func testNothingIsJudgedWhenSwift5FailsOrSwiftcFailsElsewhere() throws {
        let missing = try fixture("swiftc-missing-module.txt").map { diagnostic -> CompilerDiagnostic in
            var moved = diagnostic
            moved.file = moved.file?.replacingOccurrences(of: "ListAdder", with: "Mandelbrot")
            return moved
        }
        XCTAssertThrowsError(try judge(.exercise, swift5: (1, missing), swift6: (1, missing))) {
            XCTAssertEqual(
                ($0 as? CompilerVerdict.Unjudged)?.description,
                "does not compile in Swift 5 mode either: Exercise.swift:2: missing required module 'CRaceLabSupport'")
        }
        let elsewhere = DiagnosticParser.parse("<unknown>:0: error: unable to load standard library")
        XCTAssertThrowsError(try judge(.broken, swift5: (0, []), swift6: (1, elsewhere))) {
            XCTAssertEqual(
                ($0 as? CompilerVerdict.Unjudged)?.description,
                "swiftc failed outside the lab's files: unable to load standard library")
        }
        XCTAssertThrowsError(try judge(.broken, swift5: (0, []), swift6: (139, []))) {
            XCTAssertEqual(
                ($0 as? CompilerVerdict.Unjudged)?.description,
                "swiftc failed in Swift 6 mode (exit 139) without an error message")
        }
    }

    func testStoredResultStandsOnlyForTheSourcesItWasMeasuredOn() throws {
        let exercise = try sources(.exercise)
        XCTAssertEqual(
            CompilerFinding.current(exercise, in: nil).detail,
            "not measured (racelab compiler-check): no Grading/compiler.json")
        XCTAssertEqual(CompilerFinding.current(exercise, in: CompilerFile(results: [])).cell, "not measured")
        let result = try judge(
            .exercise, swift5: (0, []), swift6: (1, try fixture("swiftc-mandelbrot-exercise-swift6.txt")))
        let file = CompilerFile(results: [result])
        try file.write(packageAt: root)
        let read = try XCTUnwrap(CompilerFile.read(packageAt: root))
        XCTAssertEqual(read, file)
        XCTAssertEqual(CompilerFinding.current(exercise, in: read).result, result)
        XCTAssertEqual(CompilerFinding.current(exercise, in: read).cell, "rejected")

        // The student edits the exercise: the result no longer says anything about it.
        try Data("// fixed now\n".utf8).write(to: root.appendingPathComponent("Labs/Mandelbrot/Exercise.swift"))
        let stale = CompilerFinding.current(exercise, in: read)
        XCTAssertNil(stale.result)
        XCTAssertEqual(
            stale.detail,
            "not measured (racelab compiler-check): Scenario.swift or Exercise.swift changed since it was measured")
        // The lab's interface (Scenario.swift) changes: every part's result is stale.
        let fixed = try judge(.fixed, swift5: (0, []), swift6: (0, []))
        XCTAssertNotNil(CompilerFinding.current(try sources(.fixed), in: CompilerFile(results: [fixed])).result)
        try Data("// new scenario\n".utf8).write(to: root.appendingPathComponent("Labs/Mandelbrot/Scenario.swift"))
        XCTAssertNil(CompilerFinding.current(try sources(.fixed), in: CompilerFile(results: [fixed])).result)
    }

    func testMeasuringAgainChangesTheFileOnlyWhenTheResultChanges() throws {
        let first = try judge(.broken, swift5: (0, []), swift6: (0, []))
        var again = first
        again.measuredAt = "2027-01-01T00:00:00Z"
        let file = CompilerFile(results: [first])
        XCTAssertEqual(file.replacing(again), file, "same result: the stored date stays")
        again.status = .warns
        XCTAssertEqual(file.replacing(again).results, [again])
    }
}
