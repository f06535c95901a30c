import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

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
        XCTAssertEqual(
            TSanReportParser.crashLine(in: try Fixture.text("list-adder-broken.log")),
            "Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range")
    }

    func testFramesWithoutSymbolsOrLinesAreKept() throws {
        let frame = try XCTUnwrap(TSanReportParser.frame("#2 <null> <null> (racelab+0x10d40a)"))
        XCTAssertEqual(frame.demangled, "<unknown>")
        XCTAssertNil(frame.file)
        XCTAssertEqual(frame.module, "racelab")
        let noLine = try XCTUnwrap(
            TSanReportParser.frame("#0 $s4Labs3FooC3baryyF /src/Labs/Foo/Broken.swift (racelab+0x1) (BuildId: abc123)"))
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
            WARNING: ThreadSanitizer: a kind from a future runtime (pid=1)
                #0 malloc <null> (a.out+0x1)
            SUMMARY: ThreadSanitizer: a kind from a future runtime
            ==================
            """
        let reports = TSanReportParser.parse(log)
        XCTAssertEqual(reports.count, 1)
        XCTAssertEqual(reports[0].kind, .other)
        XCTAssertEqual(reports[0].title, "a kind from a future runtime")
        XCTAssertTrue(reports[0].text.contains("#0 malloc"))
        XCTAssertEqual(
            reports[0].stacks?.first?.map(\.function), ["malloc"], "frames right after the headline are its stack")
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

/// Every report kind on real logs captured on this toolchain (Fixtures/README.md says how).
final class TSanReportKindsTests: XCTestCase {
    func reports(_ name: String) throws -> [TSanReport] { TSanReportParser.parse(try Fixture.text(name)) }

    func testDataRaceOnAGlobal() throws {
        let report = try XCTUnwrap(try reports("data-race-global.log").first)
        XCTAssertEqual(report.kind, .dataRace)
        XCTAssertEqual(report.accesses.count, 2)
        XCTAssertEqual(Set(report.accesses.map(\.isPrevious)), [false, true])
        XCTAssertTrue(report.accesses.contains(where: \.isWrite))
        XCTAssertEqual(report.location?.hasPrefix("global"), true)
    }

    func testSwiftAccessRaceWithTwoModifyingAccesses() throws {
        let report = try XCTUnwrap(try reports("swift-access-race.log").first)
        XCTAssertEqual(report.kind, .swiftAccessRace)
        XCTAssertEqual(report.accesses.count, 2)
        XCTAssertTrue(report.accesses.allSatisfy(\.isWrite), "modifying accesses are writes")
        XCTAssertTrue(report.accesses.allSatisfy { $0.thread?.hasPrefix("thread T") == true })
    }

    func testLockOrderInversionKeepsTheCycleAndBothAcquisitions() throws {
        let report = try XCTUnwrap(try reports("lock-order-inversion.log").first)
        XCTAssertEqual(report.kind, .lockOrderInversion)
        XCTAssertEqual(report.lockCycle?.contains("=> M1"), true)
        let acquisitions = report.accesses.filter { $0.description.hasPrefix("Mutex") }
        XCTAssertGreaterThanOrEqual(acquisitions.count, 2)
        XCTAssertTrue(acquisitions.allSatisfy { !$0.frames.isEmpty })
        let summary = ReportSummary.oneLine(report)
        XCTAssertTrue(summary.hasPrefix("lock-order inversion (M0 => M1 => M0): "), summary)
        XCTAssertTrue(summary.contains("takes M1 while holding M0"), summary)
        XCTAssertFalse(
            summary.contains("compiler-rt") || summary.contains("pthread_mutex_lock"),
            "names the program's frames, not TSan's")
    }

    func testThreadLeakNamesTheThreadAndWhereItWasCreated() throws {
        let report = try XCTUnwrap(try reports("thread-leak.log").first)
        XCTAssertEqual(report.kind, .threadLeak)
        XCTAssertTrue(report.accesses.isEmpty)
        let thread = try XCTUnwrap(report.threads.first)
        XCTAssertTrue(thread.description.hasPrefix("Thread T1"))
        XCTAssertEqual(thread.frames.first?.function, "pthread_create")
        XCTAssertTrue(ReportSummary.oneLine(report).contains("Thread T1"))
    }

    func testHeapUseAfterFree() throws {
        let report = try XCTUnwrap(try reports("heap-use-after-free.log").first)
        XCTAssertEqual(report.kind, .heapUseAfterFree)
        XCTAssertTrue(report.accesses.contains { $0.frames.first?.function == "free" })
    }

    func testSeveralReportsInOneLogKeepTheirOrder() throws {
        XCTAssertEqual(try reports("several-reports.log").map(\.kind), [.dataRace, .swiftAccessRace, .threadLeak])
    }

    func testCrashAfterARace() throws {
        let log = try Fixture.text("crash-after-race.log")
        XCTAssertEqual(TSanReportParser.parse(log).map(\.kind), [.dataRace])
        XCTAssertEqual(
            TSanReportParser.crashLine(in: log),
            "Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range")
    }

    func testColourCodesAreIgnored() throws {
        let plain = try reports("data-race-global.log")
        let coloured = try reports("ansi-colour.log")
        XCTAssertEqual(coloured.map(\.kind), [.dataRace])
        XCTAssertEqual(coloured.first?.accesses.count, plain.first?.accesses.count)
        XCTAssertFalse(coloured.first?.text.contains("\u{1B}") ?? true)
    }

    func testTruncatedLogKeepsTheCutReport() throws {
        let parsed = try reports("truncated.log")
        XCTAssertEqual(parsed.map(\.kind), [.dataRace, .swiftAccessRace])
        XCTAssertFalse(parsed[0].truncated)
        XCTAssertTrue(parsed[1].truncated)
    }

    func testAProgramOutsideTheLabs() throws {
        let parsed = try reports("outside-program.log")
        XCTAssertGreaterThanOrEqual(parsed.count, 2)
        XCTAssertTrue(parsed.allSatisfy { $0.kind == .swiftAccessRace || $0.kind == .dataRace })
        XCTAssertLessThanOrEqual(
            TSanReportParser.parseUnique(try Fixture.text("outside-program.log")).count, parsed.count)
        XCTAssertTrue(parsed.allSatisfy { !$0.accesses.isEmpty && $0.summary != nil })
    }
}
