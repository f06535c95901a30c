import Foundation
import LabKit
import XCTest

@testable import RaceLabHarness

/// What the harness writes for a child lives in a folder of that run alone: fresh, private,
/// checked when used, removed after. Nothing is shared between runs, labs or submissions.
final class RunFolderTests: XCTestCase {
    func testEachRunGetsAFreshPrivateFolder() throws {
        let first = try RunFolder.make()
        let second = try RunFolder.make()
        defer {
            first.remove()
            second.remove()
        }
        XCTAssertNotEqual(first.url, second.url)
        XCTAssertNotEqual(first.suppressionsDescriptor ?? -1, second.suppressionsDescriptor ?? -2)
        let mode = try XCTUnwrap(
            FileManager.default.attributesOfItem(atPath: first.url.path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o700, "only this user may enter it")
        XCTAssertTrue(first.url.lastPathComponent.hasPrefix("racelab-run-"))
        XCTAssertEqual(
            first.url.lastPathComponent.count, "racelab-run-".count + 6,
            "an unpredictable name (mkdtemp's six random characters)")
    }

    /// The suppressions are sealed: written once by the harness, never again, by anyone.
    func testTheSuppressionsAreSealed() throws {
        #if !os(Linux)
            throw XCTSkip("sealed memfds are Linux's; elsewhere the suppressions are a file in the run folder")
        #endif
        let folder = try RunFolder.make()
        defer { folder.remove() }
        let descriptor = try XCTUnwrap(folder.suppressionsDescriptor, "Linux has sealed memfds")
        XCTAssertEqual(folder.suppressionsPath, "/proc/self/fd/4")
        let mine = "/proc/self/fd/\(descriptor)"
        XCTAssertEqual(try String(contentsOfFile: mine, encoding: .utf8), TSanEnvironment.suppressions)
        let writer = open(mine, O_WRONLY)
        defer { if writer >= 0 { close(writer) } }
        let written = writer < 0 ? -1 : write(writer, "race:*\n", 7)
        XCTAssertLessThan(written, 0, "a write to sealed suppressions must fail")
        XCTAssertEqual(try String(contentsOfFile: mine, encoding: .utf8), TSanEnvironment.suppressions)
        XCTAssertTrue(folder.suppressionsIntact)
    }

    func testRemoveLeavesNothing() throws {
        let folder = try RunFolder.make()
        try Data("x".utf8).write(to: folder.url.appendingPathComponent("scratch"))
        folder.remove()
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.path))
    }

    /// A child that tries to rewrite its suppressions (to silence TSan for whoever comes next)
    /// cannot: every write is refused, and each run reads the harness's own list.
    func testAChildCannotRewriteItsSuppressions() throws {
        let script = try XCTUnwrap(
            Bundle.module.url(forResource: "Fixtures/children/poison-suppressions", withExtension: "sh"))
        var settings = RunSettings(executable: script, runs: 2, seed: 1)
        settings.iterations = 1
        let lab = Lab(
            info: LabInfo(id: "tiny", title: "t", source: "s", bug: "b", invariants: [], expectedDetectors: [.tsan]),
            variants: [Lab.Variant(kind: .exercise, name: "exercise")])
        let outcome = LabRunner.run(lab, variant: lab.variants[0], mode: .scripted, settings: settings)
        XCTAssertEqual(outcome.runs.count, 2)
        for run in outcome.runs {
            XCTAssertEqual(run.failures.map(\.message), [], "no write got through")
            XCTAssertNil(run.harnessError)
        }
        XCTAssertTrue(outcome.met)
    }

    /// Where the machine offers a sandbox, a child can write into its own run folder and
    /// nowhere else.
    func testASandboxedChildCannotWriteOutsideItsRunFolder() throws {
        guard ChildSandbox.unshare != nil else { throw XCTSkip("no usable unshare here") }
        let script = try XCTUnwrap(
            Bundle.module.url(forResource: "Fixtures/children/sandbox-escape", withExtension: "sh"))
        var settings = RunSettings(executable: script, runs: 1, seed: 1)
        settings.iterations = 1
        let lab = Lab(
            info: LabInfo(
                id: "tiny", title: "t", source: "s", bug: "b", invariants: [], expectedDetectors: [.invariant]),
            variants: [Lab.Variant(kind: .exercise, name: "exercise")])
        let sandboxed = LabRunner.run(lab, variant: lab.variants[0], mode: .scripted, settings: settings)
        XCTAssertTrue(sandboxed.met, "\(sandboxed.runs.map { $0.failures.map(\.message) + [$0.harnessError ?? ""] })")
        // The same script without the sandbox does get out: the test can tell the difference.
        settings.sandbox = false
        let bare = LabRunner.run(lab, variant: lab.variants[0], mode: .scripted, settings: settings)
        XCTAssertEqual(bare.runs.first?.failures.map(\.message), ["wrote outside the run folder"])
    }
}
