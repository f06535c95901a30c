import Foundation
import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

/// The suppressions drop the Swift runtime's own lock-order report and nothing a lab can cause.
final class TSanSuppressionsTests: XCTestCase {
    /// TSan drops a report when a frame of any of its stacks matches a pattern; without `^` or
    /// `$` a pattern matches anywhere in the function name, the file or the module.
    func suppressed(_ report: TSanReport) -> Bool {
        let patterns = TSanEnvironment.suppressions.split(separator: "\n")
            .filter { $0.hasPrefix("deadlock:") }.map { String($0.dropFirst("deadlock:".count)) }
        XCTAssertFalse(patterns.isEmpty)
        let stacks = report.accesses.map(\.frames) + report.threads.map(\.frames) + [report.locationFrames]
        return stacks.joined().contains { frame in
            patterns.contains {
                frame.function.contains($0) || frame.demangled.contains($0) || (frame.file ?? "").contains($0)
            }
        }
    }

    func testTheRuntimesMetadataInversionIsSuppressed() throws {
        let report = try XCTUnwrap(TSanReportParser.parse(try Fixture.text("runtime-metadata-inversion.log")).first)
        XCTAssertEqual(report.kind, .lockOrderInversion, "without the suppressions this would fail a clean variant")
        XCTAssertTrue(suppressed(report))
    }

    func testALabsOwnLockOrderInversionIsNotSuppressed() throws {
        let report = try XCTUnwrap(TSanReportParser.parse(try Fixture.text("lock-order-inversion.log")).first)
        XCTAssertEqual(report.kind, .lockOrderInversion)
        XCTAssertFalse(suppressed(report))
    }

    func testEveryChildGetsTheSuppressionsFileOfItsOwnRunFolder() throws {
        let folder = try RunFolder.make()
        defer { folder.remove() }
        let options = try XCTUnwrap(
            TSanEnvironment.childEnvironment(folder: folder, base: ["PATH": "/usr/bin"])["TSAN_OPTIONS"])
        let setting = try XCTUnwrap(options.split(separator: ":").first { $0.hasPrefix("suppressions=") })
        let path = String(setting.dropFirst("suppressions=".count))
        XCTAssertEqual(path, folder.suppressionsPath)
        let readable = folder.suppressionsDescriptor.map { "/proc/self/fd/\($0)" } ?? path
        XCTAssertEqual(try String(contentsOfFile: readable, encoding: .utf8), TSanEnvironment.suppressions)
    }
}
