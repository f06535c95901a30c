import Foundation
import XCTest
import LabKit
@testable import RaceLabHarness

/// What the harness writes for a child lives in a folder of that run alone: fresh, private,
/// checked when used, removed after. Nothing is shared between runs, labs or submissions.
final class RunFolderTests: XCTestCase {
    func testEachRunGetsAFreshPrivateFolder() throws {
        let first = try RunFolder.make(), second = try RunFolder.make()
        defer { first.remove(); second.remove() }
        XCTAssertNotEqual(first.url, second.url)
        XCTAssertNotEqual(first.suppressionsFile, second.suppressionsFile)
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: first.url.path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o700, "only this user may enter it")
        XCTAssertTrue(first.url.lastPathComponent.hasPrefix("racelab-run-"))
        XCTAssertGreaterThanOrEqual(first.url.lastPathComponent.count, "racelab-run-".count + 8, "an unpredictable name")
    }

    func testARewrittenSuppressionsFileIsNoticed() throws {
        let folder = try RunFolder.make()
        defer { folder.remove() }
        XCTAssertTrue(folder.suppressionsIntact)
        try Data("race:*\n".utf8).write(to: folder.suppressionsFile)
        XCTAssertFalse(folder.suppressionsIntact)
    }

    func testRemoveLeavesNothing() throws {
        let folder = try RunFolder.make()
        try Data("x".utf8).write(to: folder.url.appendingPathComponent("scratch"))
        folder.remove()
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.path))
    }

    /// A child that rewrites its suppressions (to silence TSan for whoever comes next) gets a
    /// forged verdict, and the next run gets a clean file of its own.
    func testAChildThatRewritesItsSuppressionsIsNotClean() throws {
        let script = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/children/poison-suppressions", withExtension: "sh"))
        var settings = RunSettings(executable: script, runs: 2, seed: 1)
        settings.iterations = 1
        let lab = Lab(info: LabInfo(id: "tiny", title: "t", source: "s", bug: "b", invariants: [], expectedDetectors: [.tsan]),
                      variants: [Lab.Variant(kind: .exercise, name: "exercise")])
        let outcome = LabRunner.run(lab, variant: lab.variants[0], mode: .scripted, settings: settings)
        XCTAssertEqual(outcome.runs.count, 2)
        for run in outcome.runs {
            XCTAssertTrue(run.harnessError?.contains(VerdictBuilder.forgedMarker) == true, run.harnessError ?? "no error")
        }
        XCTAssertFalse(outcome.met)
    }
}
