import XCTest

@testable import TSanReports

/// `racelab bench explain`'s check, read from the log's own text: every report counted, each
/// title as TSan printed it, the first line of the program's own code in each stack named.
final class ExplanationCoverageTests: XCTestCase {
    func coverage(_ fixture: String, root: String, explaining other: String? = nil) throws -> ExplanationCoverage {
        let log = try Fixture.text(fixture)
        let explained = TSanExplainer.explain(try other.map { try Fixture.text($0) } ?? log)
        return ExplanationCoverage.measure(log: log, explanation: explained, userRoot: root)
    }

    /// A race in a helper: each access's stack starts at a line of the program's own; where
    /// the thread was created is left out.
    func testARaceInAHelperIsExplainedWhole() throws {
        let result = try coverage("race-in-a-helper.log", root: "/tmp/foreign")
        XCTAssertEqual(result.reportsInLog, 1)
        XCTAssertEqual(result.summaryCount, 1)
        XCTAssertEqual(result.titles, ["data race"])
        XCTAssertEqual(result.userLines, ["race.c:6", "race.c:3"])
        XCTAssertTrue(result.isComplete, result.gaps.joined(separator: "; "))
    }

    /// A program kept in a folder named compiler-rt is still the program's own code.
    func testAProgramInAFolderNamedLikeTheRuntimeIsExplainedWhole() throws {
        let result = try coverage("global-race-in-compiler-rt-folder.log", root: "/tmp/foreign/compiler-rt")
        XCTAssertEqual(result.userLines, ["race.c:7", "race.c:3"])
        XCTAssertTrue(result.isComplete, result.gaps.joined(separator: "; "))
    }

    /// A lock-order inversion's title is TSan's own, "(potential deadlock)" and all.
    func testALockOrderInversionKeepsTSansTitle() throws {
        let result = try coverage("lock-order-inversion.log", root: "/work/fixtures")
        XCTAssertEqual(result.titles, ["lock-order-inversion (potential deadlock)"])
        XCTAssertEqual(result.titlesMissing, [])
        XCTAssertTrue(result.isComplete, result.gaps.joined(separator: "; "))
    }

    /// The check can fail: another log's explanation leaves this one's lines and counts out.
    func testAnExplanationOfAnotherLogIsNotWhole() throws {
        let result = try coverage("race-in-a-helper.log", root: "/tmp/foreign", explaining: "several-reports.log")
        XCTAssertFalse(result.isComplete)
        XCTAssertEqual(result.userLinesMissing, ["race.c:6", "race.c:3"])
        XCTAssertTrue(
            result.gaps.contains("the explanation counts 3 report(s), the log prints 1"),
            result.gaps.joined(separator: "; "))
        let table = ExplanationCoverage.table([(log: "race-in-a-helper.log", coverage: result)])
        XCTAssertTrue(table.contains("Explained whole: 0 of 1 log(s)."), table)
        XCTAssertTrue(table.contains("race.c:6 not named"), table)
    }
}

/// Logs of programs nobody here wrote: LLVM's and Swift's own ThreadSanitizer tests, built and
/// run on this toolchain (Fixtures/foreign/README.md says how). `racelab bench explain` prints
/// the same table (docs/explain.md).
final class ForeignLogTests: XCTestCase {
    static let sourceRoot = "/work/foreign"

    static func logs() throws -> [URL] {
        let folder = try XCTUnwrap(
            Bundle.module.url(forResource: "foreign", withExtension: nil, subdirectory: "Fixtures"))
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects ?? []
        return files.compactMap { $0 as? URL }.filter { $0.pathExtension == "log" }
            .sorted { $0.path < $1.path }
    }

    func testEveryForeignLogIsExplainedWhole() throws {
        let logs = try Self.logs()
        XCTAssertEqual(logs.count, 22, "16 with the harness's options, 6 with interceptor accesses watched")
        for url in logs {
            let text = try String(contentsOf: url, encoding: .utf8)
            let coverage = ExplanationCoverage.measure(
                log: text, explanation: TSanExplainer.explain(text), userRoot: Self.sourceRoot)
            XCTAssertGreaterThan(coverage.reportsInLog, 0, url.lastPathComponent)
            XCTAssertTrue(
                coverage.isComplete, "\(url.lastPathComponent): " + coverage.gaps.joined(separator: "; "))
        }
    }
}
