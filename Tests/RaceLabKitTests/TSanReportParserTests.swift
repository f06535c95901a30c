@testable import RaceLabKit
import XCTest

final class TSanReportParserTests: XCTestCase {
    func testListAdderAccessRaceIsParsedWithBothAccessesAndTheirLines() throws {
        let reports = TSanReportParser.parse(try Fixture.text("list-adder-broken.log"))
        XCTAssertEqual(reports.count, 1)
        let report = try XCTUnwrap(reports.first)
        XCTAssertEqual(report.kind, .swiftAccessRace)
        XCTAssertFalse(report.truncated)
        XCTAssertEqual(report.accesses.count, 2)
        let (now, before) = (report.accesses[0], report.accesses[1])
        XCTAssertTrue(now.isWrite, "a modifying access is a write")
        XCTAssertEqual(now.thread, "main thread")
        XCTAssertFalse(now.isPrevious)
        XCTAssertTrue(before.isPrevious)
        XCTAssertFalse(before.isWrite)
        XCTAssertEqual(before.size, 8)
        XCTAssertEqual(before.thread?.hasPrefix("thread T"), true)
        XCTAssertEqual(before.frames.first?.shortLocation, "Broken.swift:37")
        XCTAssertEqual(before.frames.first?.demangled, "closure #1 in ListAdderBroken.recalculate()")
        XCTAssertEqual(now.frames.first?.demangled.hasPrefix("ListAdderBroken.removeAll(keepingFirst:"), true)
        XCTAssertEqual(report.location?.hasPrefix("heap block of size"), true)
        XCTAssertFalse(report.locationFrames.isEmpty)
        XCTAssertEqual(report.threads.count, 1)
        XCTAssertEqual(report.summary?.hasPrefix("ThreadSanitizer: Swift access race"), true)
        XCTAssertFalse(report.frames(under: "/work/main/Labs/ListAdder").isEmpty, "tied to the lab's own lines")
        XCTAssertEqual(TSanReportParser.crashLine(in: try Fixture.text("list-adder-broken.log")),
                       "Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range")
    }

    func testFramesWithoutSymbolsOrLinesAreKept() throws {
        let frame = try XCTUnwrap(TSanReportParser.frame("#2 <null> <null> (racelab+0x10d40a)"))
        XCTAssertEqual(frame.demangled, "<unknown>")
        XCTAssertNil(frame.file)
        XCTAssertEqual(frame.module, "racelab")
        let noLine = try XCTUnwrap(TSanReportParser.frame("#0 $s4Labs3FooC3baryyF /src/Labs/Foo/Broken.swift (racelab+0x1) (BuildId: abc123)"))
        XCTAssertEqual(noLine.file, "/src/Labs/Foo/Broken.swift")
        XCTAssertNil(noLine.line)
        XCTAssertEqual(noLine.shortLocation, "Broken.swift")
        let full = try XCTUnwrap(TSanReportParser.frame("#1 main /tmp/a b/main.c:12:3 (a.out+0x10)"))
        XCTAssertEqual(full.file, "/tmp/a b/main.c")
        XCTAssertEqual(full.line, 12)
        XCTAssertEqual(full.column, 3)
    }

    func testUnknownKindsAreKeptWhole() {
        let log = """
            ==================
            WARNING: ThreadSanitizer: signal-unsafe call inside of a signal (pid=1)
                #0 malloc <null> (a.out+0x1)
            SUMMARY: ThreadSanitizer: signal-unsafe call inside of a signal
            ==================
            """
        let reports = TSanReportParser.parse(log)
        XCTAssertEqual(reports.count, 1)
        XCTAssertEqual(reports[0].kind, .other)
        XCTAssertEqual(reports[0].title, "signal-unsafe call inside of a signal")
        XCTAssertTrue(reports[0].text.contains("#0 malloc"))
    }

    func testDuplicateReportsCountOnce() throws {
        let one = try Fixture.text("list-adder-broken.log")
        XCTAssertEqual(TSanReportParser.parse(one + "\n" + one).count, 2)
        XCTAssertEqual(TSanReportParser.parseUnique(one + "\n" + one).count, 1)
    }

    func testNoReportsInOrdinaryOutput() {
        XCTAssertTrue(TSanReportParser.parse("hello\nworld\n==================\n").isEmpty)
        XCTAssertNil(TSanReportParser.crashLine(in: "all good"))
    }
}
