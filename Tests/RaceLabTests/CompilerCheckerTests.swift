@testable import CompilerCheck
import Foundation
import LabKit
import XCTest

/// The real thing: list-adder's broken code compiled in Swift 6 mode against this build's modules.
final class CompilerCheckerTests: XCTestCase {
    var packageRoot: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }

    func testListAdderBrokenIsRejectedBySwift6() throws {
        let compiler: SwiftCompiler
        do { compiler = try SwiftCompiler.locate() } catch { throw XCTSkip("no swiftc here: \(error)") }
        // The test bundle sits in the build folder, beside the modules `swift test` just built.
        let build = BuildProducts(folder: Bundle.main.bundleURL)
        guard FileManager.default.fileExists(atPath: build.swiftmodule("ListAdder").path) else {
            throw XCTSkip("ListAdder.swiftmodule is not in \(build.modulesFolder.path)")
        }
        let sources = try XCTUnwrap(LabModuleSources(lab: "list-adder", folder: packageRoot.appendingPathComponent("Labs/ListAdder"), part: .broken))
        let checker = CompilerChecker(compiler: compiler, build: build)
        XCTAssertTrue(checker.arguments(sources, swiftVersion: 6).contains("-emit-sil"), "SIL diagnostics (sending ...) too")
        let result = try checker.check(sources).get()
        XCTAssertEqual(result.status, .rejected, result.summary)
        XCTAssertEqual(result.files, ["Labs/ListAdder/Broken.swift"])
        XCTAssertEqual(result.sourceDigest, sources.digest)
        XCTAssertEqual(result.first?.file, "Labs/ListAdder/Broken.swift", result.summary)
        XCTAssertTrue(result.first?.message.contains("Sendable") ?? false, result.summary)
        XCTAssertTrue(result.compiler.contains("Swift version"), result.compiler)
    }
}
