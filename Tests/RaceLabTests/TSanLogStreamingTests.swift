import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

/// A source that hands out a few bytes at a time, so that every boundary (inside a colour
/// code, inside a line, inside a report) falls between two reads.
struct TrickleSource: LogByteSource {
    let bytes: [UInt8]
    let step: Int
    var offset = 0

    init(_ text: String, step: Int) {
        bytes = Array(text.utf8)
        self.step = step
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(LogReadError) -> Int {
        let count = min(step, buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        for index in 0..<count { buffer[index] = bytes[offset + index] }
        offset += count
        return count
    }
}

/// Reading a log as a stream: bounded lines and reports, colour and junk removed on the way,
/// repeats counted, unreadable input refused with one line. (How long the hostile inputs take
/// is measured by scripts/bench-explain.sh, not here.)
final class TSanLogStreamingTests: XCTestCase {
    func lines(of text: String, step: Int = 1 << 20) throws -> [String] {
        var reader = LogLineReader(TrickleSource(text, step: step))
        var lines: [String] = []
        try reader.forEachLine { lines.append(String(decoding: $0, as: UTF8.self)) }
        return lines
    }

    func testLinesComeOutWithoutColourCRsOrControlBytesWhereverTheReadsEnd() throws {
        let text = "a\u{1B}[1;31mred\u{1B}[0m b\r\n\u{1B}]0;title\u{07}second\u{0}\u{1}\tline\nlast"
        for step in [1, 2, 3, 7, 1 << 20] {
            XCTAssertEqual(try lines(of: text, step: step), ["ared b", "second\tline", "last"], "step \(step)")
        }
    }

    func testAnOverlongLineKeepsItsStartAndIsCounted() throws {
        let long = String(repeating: "x", count: 3 * LogLineReader<InMemorySource>.maximumLineLength)
        var reader = LogLineReader(InMemorySource("short\n" + long + "\nafter\n"))
        var lengths: [Int] = []
        try reader.forEachLine { lengths.append($0.count) }
        XCTAssertEqual(lengths, [5, LogLineReader<InMemorySource>.maximumLineLength, 5])
        XCTAssertEqual(reader.linesCut, 1)
        XCTAssertEqual(reader.lineCount, 3)
    }

    func testColourSplitAcrossReadsChangesNothing() throws {
        var coloured = LogLineReader(TrickleSource(try Fixture.text("ansi-colour.log"), step: 3))
        let fromTrickle = try TSanExplainer.explain(reading: &coloured)
        XCTAssertEqual(fromTrickle.text, TSanExplainer.explain(try Fixture.text("data-race-global.log")).text)
    }

    func testBinaryInputIsRefusedButJunkInsideALogIsSkipped() throws {
        var zeros = LogLineReader(InMemorySource(String(repeating: "\u{0}", count: 100_000)))
        XCTAssertThrowsError(try TSanExplainer.explain(reading: &zeros)) { error in
            XCTAssertEqual(error as? LogReadError, .notText)
        }
        XCTAssertTrue(LogReadError.notText.message.contains("give a ThreadSanitizer log as text"))
        let log = try Fixture.text("data-race-global.log")
        let junk = String(repeating: "\u{0}\u{3}", count: 50)
        let explanation = TSanExplainer.explain(
            junk + "\n" + log.replacingOccurrences(of: "SUMMARY", with: "\u{0}SUMMARY"))
        XCTAssertEqual(explanation.reports.map(\.report.kind), [.dataRace])
        XCTAssertEqual(explanation.binaryBytesSkipped, 101)
        XCTAssertTrue(explanation.text.contains("101 control byte(s) that are not text were skipped"), explanation.text)
    }

    func testAReportLongerThanTheLimitKeepsItsStart() throws {
        let frame =
            "    #1 $s14dataRaceGlobalyyYbcfU_ /work/fixtures/Sources/dataRaceGlobal/main.swift:6:13 (dataRaceGlobal+0x1)\n"
        let log =
            "==================\nWARNING: ThreadSanitizer: data race (pid=1)\n  Write of size 8 at 0x10 by thread T1:\n"
            + String(repeating: frame, count: ReportBlockCollector.maximumLines + 500) + "==================\n"
        let reports = TSanReportParser.parse(log)
        XCTAssertEqual(reports.count, 1)
        XCTAssertEqual(
            reports[0].linesDropped, 502, "the headline and access line are kept, then frames up to the limit")
        XCTAssertEqual(reports[0].accesses.first?.frames.count, ReportBlockCollector.maximumLines - 2)
        XCTAssertTrue(TSanExplainer.explain(log).text.contains("its last 502 were left out"))
    }

    func testManyHeadersAreCountedNotKept() {
        var log = ""
        for pid in 0..<20_000 { log += "WARNING: ThreadSanitizer: data race (pid=\(pid % 7))\n" }
        let explanation = TSanExplainer.explain(log)
        XCTAssertEqual(explanation.reportCount, 20_000)
        XCTAssertEqual(explanation.reports.count, 1)
        XCTAssertEqual(explanation.reports.first?.occurrences, 20_000)
        XCTAssertEqual(explanation.reports.first?.report.truncated, true)
        XCTAssertEqual(explanation.kinds, ["data race": 20_000])
    }

    func testMoreDifferentReportsThanShownAreCounted() {
        var log = ""
        for line in 1...(ReportGrouper.maximumShown + 50) {
            log += """
                ==================
                WARNING: ThreadSanitizer: data race (pid=1)
                  Write of size 8 at 0x10 by thread T1:
                    #0 work /src/main.c:\(line):3 (a.out+0x1)

                SUMMARY: ThreadSanitizer: data race
                ==================

                """
        }
        let explanation = TSanExplainer.explain(log)
        XCTAssertEqual(explanation.reportCount, ReportGrouper.maximumShown + 50)
        XCTAssertEqual(explanation.reports.count, ReportGrouper.maximumShown)
        XCTAssertEqual(explanation.reportsNotShown, 50)
        XCTAssertTrue(
            explanation.text.contains(
                "Only the first \(ReportGrouper.maximumShown) different reports are explained; 50 more"))
    }

    func testThePrintingFingerprintIgnoresAddressesAndPidsButNotLines() {
        func fingerprint(_ lines: [String]) -> ReportFingerprint {
            var print = ReportFingerprint()
            for line in lines {
                var bytes = Array(line.utf8)
                bytes.withUnsafeMutableBufferPointer { print.add(UnsafeBufferPointer($0)) }
            }
            return print
        }
        let one = fingerprint([
            "WARNING: ThreadSanitizer: data race (pid=12)", "  Write of size 8 at 0x7b0400001234 by thread T1:",
            "  Thread T1 (tid=77, running) created by main thread at:", "    #0 f /a.c:3:1 (a.out+0x10)"
        ])
        let again = fingerprint([
            "WARNING: ThreadSanitizer: data race (pid=9931)", "  Write of size 8 at 0x7b04deadbeef by thread T1:",
            "  Thread T1 (tid=8, running) created by main thread at:", "    #0 f /a.c:3:1 (a.out+0x99)"
        ])
        let otherLine = fingerprint([
            "WARNING: ThreadSanitizer: data race (pid=12)", "  Write of size 8 at 0x7b0400001234 by thread T1:",
            "  Thread T1 (tid=77, running) created by main thread at:", "    #0 f /a.c:4:1 (a.out+0x10)"
        ])
        XCTAssertEqual(one, again)
        XCTAssertNotEqual(one, otherLine)
    }

    func testRepeatedReportsAreCountedOnceEachWithTheirKind() throws {
        let unit = try Fixture.text("several-reports.log")
        let explanation = TSanExplainer.explain(String(repeating: unit + "\n", count: 50))
        XCTAssertEqual(explanation.reportCount, 150)
        XCTAssertEqual(explanation.reports.map(\.occurrences), [50, 50, 50])
        XCTAssertEqual(explanation.kinds, ["data race": 50, "Swift access race": 50, "thread leak": 50])
    }

    func testFilesFoldersAndDevicesAsInput() throws {
        XCTAssertThrowsError(try FileDescriptorSource(path: "/nonexistent/tsan.log")) { error in
            XCTAssertEqual(
                (error as? LogReadError)?.message,
                "cannot read '/nonexistent/tsan.log' (No such file or directory): give a ThreadSanitizer log as text "
                    + "(a program's standard error) in a file, or - for standard input")
        }
        XCTAssertThrowsError(try FileDescriptorSource(path: NSTemporaryDirectory())) { error in
            XCTAssertTrue((error as? LogReadError)?.message.contains("it is a folder") == true, "\(error)")
        }
        let zero = try FileDescriptorSource(path: "/dev/zero")
        defer { zero.close() }
        var endless = LogLineReader(zero)
        XCTAssertThrowsError(
            try TSanExplainer.explain(reading: &endless), "/dev/zero ends at the first check, not never")
        XCTAssertLessThanOrEqual(endless.bytesRead, 1 << 20)

        let url = Bundle.module.url(forResource: "thread-leak", withExtension: "log", subdirectory: "Fixtures")!
        let file = try FileDescriptorSource(path: url.path)
        defer { file.close() }
        var reader = LogLineReader(file)
        XCTAssertEqual(try TSanExplainer.explain(reading: &reader).reports.map(\.report.kind), [.threadLeak])
    }

    func testTheIgnoresMessageEndsAtTheNextUnindentedLine() {
        let log = """
            ThreadSanitizer: thread T3 'worker' finished with ignores enabled, created at:
                #0 pthread_create /x/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp:1094:3 (a.out+0x1)
                #1 start /src/a.c:9:5 (a.out+0x2)

              One of the following ignores was not ended (in order of probability)
              Ignore was enabled at:
                #0 AnnotateIgnoreReadsBegin /x/compiler-rt/lib/tsan/rtl/tsan_interface_ann.cpp:270:3 (a.out+0x3)
                #1 quiet /src/a.c:20:5 (a.out+0x4)
              Ignore was enabled at:
                #0 AnnotateIgnoreSyncBegin /x/compiler-rt/lib/tsan/rtl/tsan_interface_ann.cpp:290:3 (a.out+0x5)
                #1 quieter /src/a.c:30:5 (a.out+0x6)
            some later output
            """
        let report = TSanReportParser.parse(log)[0]
        XCTAssertEqual(report.kind, .ignoresNotEnded)
        XCTAssertEqual(report.title, "thread T3 finished with ignores enabled")
        XCTAssertEqual(report.threads.first?.description, "Thread T3 'worker' (finished)")
        XCTAssertEqual(report.threads.first?.frames.map(\.function), ["pthread_create", "start"])
        XCTAssertEqual(
            report.stacks?.map { $0.map(\.function) },
            [["AnnotateIgnoreReadsBegin", "quiet"], ["AnnotateIgnoreSyncBegin", "quieter"]])
        XCTAssertFalse(report.truncated)
        XCTAssertFalse(report.text.contains("some later output"))
        XCTAssertTrue(TSanExplainer.explain(log).text.contains("One of these ignores was never ended"))
    }
}
