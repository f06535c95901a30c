import Foundation
import LabKit
import XCTest

@testable import CompilerCheck

/// The real thing: list-adder's broken code compiled in Swift 6 mode against this build's modules.
final class CompilerCheckerTests: XCTestCase {
    var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    func testListAdderBrokenIsRejectedBySwift6() throws {
        let compiler: SwiftCompiler
        do { compiler = try SwiftCompiler.locate() } catch { throw XCTSkip("no swiftc here: \(error)") }
        // The test bundle sits in the build folder, beside the modules `swift test` just built (on
        // Linux it is the main bundle; under macOS's `xctest`, a .xctest bundle in that folder).
        let tests = Bundle(for: Self.self).bundleURL
        let build = BuildProducts(folder: tests.pathExtension == "xctest" ? tests.deletingLastPathComponent() : tests)
        guard FileManager.default.fileExists(atPath: build.swiftmodule("ListAdder").path) else {
            throw XCTSkip("ListAdder.swiftmodule is not in \(build.modulesFolder.path)")
        }
        let sources = try XCTUnwrap(
            LabModuleSources(
                lab: "list-adder", folder: packageRoot.appendingPathComponent("Labs/ListAdder"), part: .broken))
        let checker = CompilerChecker(compiler: compiler, build: build)
        XCTAssertTrue(
            checker.arguments(sources, swiftVersion: 6).contains("-emit-sil"), "SIL diagnostics (sending ...) too")
        let result = try checker.check(sources).get()
        XCTAssertEqual(result.status, .rejected, result.summary)
        XCTAssertEqual(result.files, ["Labs/ListAdder/Broken.swift"])
        XCTAssertEqual(result.sourceDigest, sources.digest)
        XCTAssertEqual(result.first?.file, "Labs/ListAdder/Broken.swift", result.summary)
        XCTAssertTrue(result.first?.message.contains("Sendable") ?? false, result.summary)
        XCTAssertTrue(result.compiler.contains("Swift version"), result.compiler)
    }
}

/// `racelab compiler-check`'s outcome: each part measured or not, the stored file updated with
/// what was, and the JSON the command prints.
final class CompilerCheckOutcomeTests: XCTestCase {
    func testMeasuredPartsReplaceTheStoredOnesAndTheOthersSayWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "racelab-outcome-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["Broken.swift", "Exercise.swift"] { try Data().write(to: folder.appendingPathComponent(name)) }
        let broken = try XCTUnwrap(LabModuleSources(lab: "tiny", folder: folder, part: .broken))
        let exercise = try XCTUnwrap(LabModuleSources(lab: "tiny", folder: folder, part: .exercise))
        func result(_ status: CompilerCheckResult.Status, at date: String) -> CompilerCheckResult {
            CompilerCheckResult(
                lab: "tiny", part: .broken, files: ["Labs/Tiny/Broken.swift"], sourceDigest: "d", compiler: "swiftc",
                measuredAt: date, status: status, errors: status == .rejected ? 1 : 0, newWarnings: 0, diagnostics: [])
        }
        let stored = CompilerFile(results: [result(.accepted, at: "before")])
        let outcome = CompilerCheckOutcome(
            parts: [broken, exercise],
            results: [.success(result(.rejected, at: "now")), .failure(.init(description: "no module"))],
            stored: stored)
        XCTAssertEqual(outcome.measured, [result(.rejected, at: "now")])
        XCTAssertEqual(outcome.unchecked, [.init(lab: "tiny", part: .exercise, reason: "no module")])
        XCTAssertEqual(outcome.file.results, [result(.rejected, at: "now")])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(outcome), as: UTF8.self)
        XCTAssertTrue(json.hasPrefix(#"{"results":[{"#), json)
        XCTAssertTrue(json.hasSuffix(#""unchecked":[{"lab":"tiny","part":"exercise","reason":"no module"}]}"#), json)
    }
}

/// Whether a build is new enough to check against: the compiler leaves an unchanged interface
/// (`.swiftmodule`) alone, so the module's object files count as its build time too.
final class BuildProductsTests: XCTestCase {
    func testAnUntouchedInterfaceWithNewerObjectsIsNotStale() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-build-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let labs = root.appendingPathComponent("Labs/Tiny")
        let build = root.appendingPathComponent("build")
        try FileManager.default.createDirectory(at: labs, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: build.appendingPathComponent("Tiny.build"), withIntermediateDirectories: true)
        func write(_ url: URL, secondsAgo: Double) throws {
            try Data().write(to: url)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -secondsAgo)], ofItemAtPath: url.path)
        }
        try write(build.appendingPathComponent("Tiny.swiftmodule"), secondsAgo: 300)
        try write(labs.appendingPathComponent("Broken.swift"), secondsAgo: 200)
        try write(labs.appendingPathComponent("Scenario.swift"), secondsAgo: 200)
        let sources = try XCTUnwrap(LabModuleSources(lab: "tiny", folder: labs, part: .broken))
        let products = BuildProducts(folder: build)
        XCTAssertNotNil(products.problem(checking: sources), "sources newer than every product: stale")
        try write(build.appendingPathComponent("Tiny.build/Scenario.swift.o"), secondsAgo: 100)
        XCTAssertNil(products.problem(checking: sources), "rebuilt objects, untouched interface: current")
        try write(labs.appendingPathComponent("Scenario.swift"), secondsAgo: 10)
        XCTAssertNotNil(products.problem(checking: sources), "edited after the build: stale")
        // A comment edited: the file is compiled again to the same object, which is left alone;
        // its dependency record is written anew.
        try write(build.appendingPathComponent("Tiny.build/Scenario.swiftdeps"), secondsAgo: 5)
        XCTAssertNil(products.problem(checking: sources), "recompiled to an unchanged object: current")
    }
}
