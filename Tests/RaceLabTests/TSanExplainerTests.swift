import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

/// `racelab explain` on real logs of every kind (Fixtures/README.md says how each was captured).
final class TSanExplainerTests: XCTestCase {
    /// Source lines as if the scratch programs' files were on disk.
    static let scratchSources: [String: [Int: String]] = [
        "/work/fixtures/Sources/dataRaceGlobal/main.swift": [6: "    counter = 1", 10: "    usleep(50_000)"],
        "/work/fixtures/Sources/lockOrder/main.swift": [
            9: "    pthread_mutex_lock(lockA)", 10: "    pthread_mutex_lock(lockB)"
        ]
    ]

    func explain(_ fixture: String, width: Int = 80) throws -> TSanExplanation {
        TSanExplainer.explain(try Fixture.text(fixture), width: width) { file, line in Self.scratchSources[file]?[line]
        }
    }

    /// Each part is in the text, wherever the lines were wrapped.
    func assertContains(_ text: String, _ parts: [String], file: StaticString = #filePath, line: UInt = #line) {
        func flat(_ text: String) -> String {
            text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        }
        for part in parts where !flat(text).contains(flat(part)) {
            XCTFail("missing \"\(part)\" in:\n\(text)", file: file, line: line)
        }
    }

    func testDataRaceOnAGlobalNamesBothAccessesTheMemoryAndTheSleep() throws {
        let explanation = try explain("data-race-global.log")
        XCTAssertEqual(explanation.reportCount, 1)
        let text = explanation.text
        assertContains(
            text,
            [
                "racelab explain: 1 ThreadSanitizer report in this log.",
                "Report 1 of 1: data race",
                "What it is: a data race.",
                "The two accesses, in the order they happened:",
                "1. Thread T1 wrote 8 bytes",
                "in closure #1 in top-level code, main.swift:6",
                "6 | counter = 1",
                "2. Thread T2 read 8 bytes",
                "in closure #2 in top-level code, main.swift (TSan gave no line)",
                "Thread T2 is a Foundation Thread, started by the main thread.",
                "The memory: the global variable dataRaceGlobal.counter : Int (8 bytes).",
                "nothing — no lock, queue or other synchronisation — made\none access wait for the other",
                "Only a sleep kept them apart in time (usleep, in closure #2 in top-level code,\nmain.swift:10).",
                "Usual cures:",
                "Confine the data to one thread or one serial queue",
                "Hand the reader an immutable copy"
            ])
        XCTAssertFalse(text.contains("Report 2"))
        XCTAssertFalse(text.contains("$s14"), "every Swift name is demangled")
    }

    /// The runtime is known by its own source tree, not by a folder name: a program kept in a
    /// folder called compiler-rt is explained like the same program kept anywhere else.
    func testAUsersFolderNamedCompilerRtIsStillTheirCode() throws {
        for fixture in ["global-race-in-compiler-rt-folder.log", "global-race-in-tmp.log"] {
            let text = try explain(fixture).text
            assertContains(text, ["Report 1 of 1: data race", "in Thread1, race.c:3", "in main, race.c:7"])
            XCTAssertFalse(text.contains("inside libraries"), "\(fixture):\n\(text)")
        }
    }

    /// A race inside a small helper still names the program's code that reached it, up to
    /// the thread's entry.
    func testARaceInAHelperNamesItsCallers() throws {
        let text = try explain("race-in-a-helper.log").text
        assertContains(
            text,
            [
                "1. Thread T1 wrote 4 bytes\n     in bar1, race.c:3",
                "called from foo1, race.c:4\n     called from Thread1, race.c:5",
                "in bar2, race.c:6",
                "called from main, race.c:10"
            ])
    }

    func testSwiftAccessRaceTwoModifyingAccessesGetTheReadModifyWriteCure() throws {
        let text = try explain("swift-access-race.log").text
        assertContains(
            text,
            [
                "Report 1 of 1: Swift access race",
                "Swift's exclusivity rule",
                "Thread T1 modified it (an append, a +=, any change in place)",
                "Thread T2 modified it",
                "part of a block of 24 bytes on the heap",
                "allocated by the main thread\nin top-level code, main.swift:7.",
                "Make the whole read-modify-write one step"
            ])
        XCTAssertFalse(text.contains("immutable copy"), "both sides write: a copy for a reader is no cure")
    }

    func testLabLogNamesTheLabsOwnLinesAndTheCrash() throws {
        let explanation = try explain("list-adder-broken.log")
        assertContains(
            explanation.text,
            [
                "1. Thread T2 read 8 bytes",
                "in closure #1 in ListAdderBroken.recalculate(), Broken.swift:37",
                "Thread T2 is a Foundation Thread, started by the main thread in\n     ListAdderBroken.add(Int), Broken.swift:18.",
                "2. The main thread modified it",
                "in ListAdderBroken.removeAll(keepingFirst: Int), Broken.swift",
                "called from closure #2 in closure #3 in static ListAdderLab.play(_:in:),",
                "The main thread is one side",
                "The log also shows a crash:\n  Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range"
            ])
    }

    func testLockOrderInversionShowsTheCycleAndWhereEachLockWasTaken() throws {
        let text = try explain("lock-order-inversion.log").text
        assertContains(
            text,
            [
                "Report 1 of 1: lock-order-inversion (potential deadlock)",
                "What it is: a possible deadlock.",
                "The cycle: M0 -> M1 -> M0",
                "Thread T1 is a thread made with pthread_create, started by the main thread in top-level code, main.swift:22.",
                "Why it can hang: thread T1 holds M0 and wants M1, while thread T2 holds M1 and wants M0.",
                "take them in that order everywhere"
            ])
        XCTAssertTrue(
            text.contains(
                """
                  Thread T1 took M0
                    in worker1(), main.swift:9
                        9 | pthread_mutex_lock(lockA)
                    called from closure #1 in top-level code, main.swift:22
                  and then M1, still holding M0
                    in worker1(), main.swift:10
                        10 | pthread_mutex_lock(lockB)
                    called from closure #1 in top-level code, main.swift:22
                  Thread T2 took M1
                    in worker2(), main.swift:15
                    called from closure #2 in top-level code, main.swift:25
                  and then M0, still holding M1
                    in worker2(), main.swift:16
                    called from closure #2 in top-level code, main.swift:25
                """), "each lock with where it was taken and its source line, one thread after the other:\n\(text)")
        XCTAssertFalse(text.contains("second_deadlock_stack"), "both stacks are in this log")
    }

    func testThreadLeakSaysWhichThreadAndWhereItWasCreated() throws {
        let text = try explain("thread-leak.log").text
        assertContains(
            text,
            [
                "Report 1 of 1: thread leak",
                "nobody joined it (waited for it to end",
                "Thread T1 was created by the main thread here:\n    in top-level code, main.swift:4",
                "it had finished its work, but nobody had collected it",
                "pthread_join", "pthread_detach"
            ])
    }

    func testHeapUseAfterFreeSaysWhoFreedAndWhoUsedItAfter() throws {
        let text = try explain("heap-use-after-free.log").text
        assertContains(
            text,
            [
                "Report 1 of 1: heap-use-after-free",
                "gave memory back (freed it)",
                "1. Thread T2 freed the memory\n     in closure #2 in top-level code, main.swift:14",
                "2. Then thread T1 read 8 bytes of it",
                "made\nthe freeing wait",
                "instead of\n    UnsafeMutablePointer"
            ])
    }

    func testSeveralReportsAreExplainedInOrderEachKindDescribedOnce() throws {
        let explanation = try explain("several-reports.log")
        XCTAssertEqual(explanation.reports.map(\.report.kind), [.dataRace, .swiftAccessRace, .threadLeak])
        XCTAssertEqual(explanation.reports.map(\.occurrences), [1, 1, 1])
        let text = explanation.text
        assertContains(
            text,
            [
                "3 ThreadSanitizer reports in this log.", "Report 1 of 3: data race",
                "Report 2 of 3: Swift access race", "Report 3 of 3: thread leak",
                "Thread T5 was created by the main thread here:\n    in top-level code, main.swift:38"
            ])
        let order = ["Report 1 of 3", "Report 2 of 3", "Report 3 of 3"].compactMap { text.range(of: $0)?.lowerBound }
        XCTAssertEqual(order, order.sorted())
        XCTAssertTrue(
            explanation.reports.allSatisfy { text.contains($0.explanation) }, "each part is in the whole text")
    }

    func testCrashAfterARaceIsMentioned() throws {
        let explanation = try explain("crash-after-race.log")
        XCTAssertEqual(explanation.reports.map(\.report.kind), [.dataRace])
        XCTAssertEqual(
            explanation.crashLines, ["Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range"])
        assertContains(
            explanation.text,
            [
                "The log also shows a crash:", "A crash after a race is often its result",
                "The memory: the global variable crashAfterRace.lastIndex : Int"
            ])
    }

    func testAProgramOutsideTheLabsWithRepeatedReports() throws {
        let explanation = try explain("outside-program.log")
        XCTAssertEqual(explanation.reportCount, 6)
        XCTAssertLessThan(explanation.reports.count, 6, "reports that read the same are explained once")
        XCTAssertEqual(explanation.reports.map(\.occurrences).reduce(0, +), 6)
        let text = explanation.text
        assertContains(
            text,
            [
                "6 ThreadSanitizer reports in this log, \(explanation.reports.count) different",
                "(printed 3 times)",
                "The variable: PageStats.views, a Dictionary<Int, Int>.",
                "in PageStats.recordView(of: Int), main.swift",
                "called from closure #1 in top-level code, main.swift:26",
                "Thread T1 is a Dispatch worker thread",
                "What it is: another Swift access race; report 1 says what that means."
            ])
        XCTAssertFalse(
            text.contains("The main thread is one side"),
            "in concurrentPerform the main thread is just one more worker")
        XCTAssertEqual(text.components(separatedBy: "Swift's exclusivity rule").count, 2, "the kind is described once")
    }

    func testColourCodesChangeNothing() throws {
        XCTAssertEqual(try explain("ansi-colour.log").text, try explain("data-race-global.log").text)
    }

    func testTruncatedReportSaysItWasCutOff() throws {
        let explanation = try explain("truncated.log")
        XCTAssertEqual(explanation.reports.map(\.report.truncated), [false, true])
        let cut = explanation.reports[1].explanation
        assertContains(
            cut,
            [
                "Cut off: the log ends in the middle of this report",
                "Thread T3 modified it", "Thread T4 modified it",
                "Which memory it was, and where the threads came from, was cut off"
            ])
        XCTAssertFalse(explanation.reports[0].explanation.contains("Cut off"))
    }

    func testALockOnOneSideOnlyIsCalledOut() throws {
        let text = try explain("half-locked.log").text
        assertContains(
            text,
            [
                "1. Thread T1 modified it (an append, a +=, any change in place)\n     in Account.deposit(Int), main.swift:9\n"
                    + "     called from closure #1 in top-level code, main.swift:19\n     (holding lock M0)",
                "2. Thread T2 modified it",
                "thread T1 held lock M0 during its access, but\nthread T2 held no lock.",
                "(M0 was made in Account.init(), main.swift",
                "Take the same lock around every access to this memory, reads included, here\n    also in Account.withdrawWithoutLock(Int)"
            ])
        XCTAssertFalse(text.contains("1 byte"), "Swift's 1-byte inout marker is not the Int's size")
    }

    func testUnknownKindsArePassedThroughWholeWithoutCuttingAPath() {
        let path =
            "/work/fixtures/Sources/a-very-long-folder-name/with-more-folders/inside-it/and-a-file-name.swift:12:3"
        let log = """
            ==================
            WARNING: ThreadSanitizer: a kind from a future runtime (pid=1)
                #0 future_call \(path) (a.out+0x1)
            SUMMARY: ThreadSanitizer: a kind from a future runtime
            ==================
            """
        let explanation = TSanExplainer.explain(log, width: 60)
        XCTAssertEqual(explanation.reports.map(\.report.kind), [.other])
        assertContains(
            explanation.text,
            [
                "Report 1 of 1: a kind from a future runtime",
                "RaceLab has no plain-words explanation for this kind of report",
                "WARNING: ThreadSanitizer: a kind from a future runtime (pid=1)",
                "SUMMARY: ThreadSanitizer: a kind from a future runtime"
            ])
        XCTAssertTrue(
            explanation.text.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == path },
            "the path is on a line of its own, whole:\n\(explanation.text)")
    }

    func testNoReportIsSaidClearly() {
        let explanation = TSanExplainer.explain("hello\nall good\n")
        XCTAssertTrue(explanation.reports.isEmpty)
        XCTAssertTrue(explanation.crashLines.isEmpty)
        XCTAssertTrue(explanation.text.hasPrefix("racelab explain: no ThreadSanitizer report found in this log."))
        assertContains(explanation.text, ["swift build --sanitize=thread"])
        let crashOnly = TSanExplainer.explain("Fatal error: Unexpectedly found nil\n")
        assertContains(
            crashOnly.text,
            [
                "no ThreadSanitizer report found", "Fatal error: Unexpectedly found nil",
                "There is no race report"
            ])
    }

    func testEveryLineFitsTheWidth() throws {
        let names =
            [
                "data-race-global.log", "swift-access-race.log", "lock-order-inversion.log", "thread-leak.log",
                "heap-use-after-free.log", "several-reports.log", "crash-after-race.log", "outside-program.log",
                "ansi-colour.log", "truncated.log", "list-adder-broken.log", "half-locked.log"
            ] + TSanExplainerKindsTests.newKinds
        for name in names {
            for width in [80, 50] {
                for line in try explain(name, width: width).text.split(separator: "\n") where line.count > width {
                    XCTFail("\(name) at \(width) columns: \(line.count) characters: \(line)")
                }
            }
        }
    }

    func testJSONHoldsTheParsedReportsAndTheText() throws {
        let explanation = try explain("several-reports.log")
        let data = try JSONEncoder().encode(explanation)
        XCTAssertEqual(try JSONDecoder().decode(TSanExplanation.self, from: data), explanation)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let reports = try XCTUnwrap(object["reports"] as? [[String: Any]])
        XCTAssertEqual(reports.count, 3)
        XCTAssertNotNil((reports[0]["report"] as? [String: Any])?["accesses"])
        XCTAssertNotNil(reports[0]["explanation"] as? String)
        XCTAssertEqual(object["text"] as? String, explanation.text)
    }

    func testSourceLinesComeFromTheFilesOnDisk() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let broken = repository.appendingPathComponent("Labs/ListAdder/Broken.swift").path
        let lines = try String(contentsOfFile: broken, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let read = SourceLineReader.lookup()
        XCTAssertEqual(read(broken, 3), String(lines[2]))
        XCTAssertNil(read(broken, 0))
        XCTAssertNil(read(broken, lines.count + 5))
        XCTAssertNil(read("/nonexistent/main.swift", 1))
        XCTAssertNil(read("/dev/zero", 1), "only ordinary files are read")
    }
}

/// Frame names as a learner reads them.
final class TSanExplainerNamesTests: XCTestCase {
    func frame(_ function: String, module: String? = nil) -> TSanReport.Frame {
        TSanReport.Frame(
            function: function, demangled: SwiftDemangler.demangle(function), file: nil, line: nil, column: nil,
            module: module)
    }

    func testTopLevelCodeModulePrefixesAndAccessorTypes() {
        XCTAssertEqual(TSanExplainer.readableName(frame("studentCache_main", module: "studentCache")), "top-level code")
        XCTAssertEqual(
            TSanExplainer.readableName(frame("$s14dataRaceGlobalyyYbcfU0_", module: "dataRaceGlobal")),
            "closure #2 in top-level code")
        XCTAssertEqual(TSanExplainer.readableName(frame("$s9lockOrder7worker1yyF", module: "lockOrder")), "worker1()")
        XCTAssertEqual(
            TSanExplainer.readableName(frame("$s12studentCache9PageStatsC5viewsSDyS2iGvM", module: "studentCache")),
            "PageStats.views.modify")
        XCTAssertEqual(
            TSanExplainer.readableName(frame("$s10halfLocked7AccountCACycfC", module: "halfLocked")), "Account.init()")
    }

    func testLongArgumentListsKeepOnlyTheirLabels() {
        XCTAssertEqual(
            TSanExplainer.withShortArguments(
                "static ListAdderLab.play(_: LabVariant<ListAdderEnvironment, ListAdderController>, in: ScenarioRun)"),
            "static ListAdderLab.play(_:in:)")
        XCTAssertEqual(TSanExplainer.withShortArguments("ListAdderBroken.add(Int)"), "ListAdderBroken.add(Int)")
        XCTAssertEqual(
            TSanExplainer.withoutTypeAnnotation("X.f(a: (Int) -> Int) : Array<(Int) -> ()>"), "X.f(a: (Int) -> Int)")
    }

    func testWrapperKeepsIndentsAndSplitsWordsLongerThanALine() {
        XCTAssertEqual(
            TextWrapper.wrap("one two three four", width: 10, indent: "  ", continuation: "    "),
            ["  one two", "    three", "    four"])
        XCTAssertEqual(TextWrapper.wrap("abcdefghijkl", width: 5), ["abcde", "fghij", "kl"])
        XCTAssertEqual(TextWrapper.wrap("", width: 5, indent: "  "), ["  "])
        XCTAssertEqual(
            TextWrapper.wrap("so nothing — no lock — made it", width: 12),
            ["so nothing —", "no lock —", "made it"], "no line starts with a dash")
        XCTAssertEqual(
            TextWrapper.wrap("build with `swift build --sanitize=thread` now", width: 40),
            ["build with", "`swift build --sanitize=thread` now"], "a code span stays whole")
    }
}
