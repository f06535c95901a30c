import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

/// `racelab explain` on every kind of report beyond plain races, each on a real log captured
/// on this toolchain (Fixtures/README.md, "Every other kind TSan prints").
final class TSanExplainerKindsTests: XCTestCase {
    static let newKinds = [
        "mutex-destroy-locked.log", "mutex-unlock-unlocked.log", "nslock-unlock-unlocked.log", "mutex-double-lock.log",
        "rwlock-read-lock-write-locked.log", "rwlock-read-unlock-write-locked.log", "mutex-invalid.log",
        "mutex-wrong-context.log", "signal-unsafe-call.log", "signal-errno.log", "ignores-thread.log",
        "ignores-main.log",
        "data-race-memcpy.log", "data-race-fd.log", "external-race.log", "vptr-race.log", "vptr-use-after-free.log",
        "async-race.log", "async-data-race.log", "runtime-internal-race.log", "lock-cycles.log",
        "lock-order-one-thread.log"
    ]

    func explain(_ fixture: String, showStacks: Bool = false) throws -> TSanExplanation {
        TSanExplainer.explain(try Fixture.text(fixture), showStacks: showStacks)
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

    /// No explanation points at TSan's own source files, whatever frame #0 was.
    func assertNamesNoRuntimeFile(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for runtimeFile in ["tsan_interceptors", "tsan_interface_ann", "sanitizer_common_interceptors", "compiler-rt"] {
            XCTAssertFalse(text.contains(runtimeFile), "names \(runtimeFile):\n\(text)", file: file, line: line)
        }
    }

    func testEveryKindHasItsOwnExplanationAndNoneIsPassedThrough() throws {
        let expected: [String: TSanReport.Kind] = [
            "mutex-destroy-locked.log": .mutexDestroyLocked, "mutex-unlock-unlocked.log": .mutexBadUnlock,
            "nslock-unlock-unlocked.log": .mutexBadUnlock, "mutex-double-lock.log": .mutexDoubleLock,
            "rwlock-read-lock-write-locked.log": .mutexBadReadLock,
            "rwlock-read-unlock-write-locked.log": .mutexBadReadUnlock,
            "mutex-invalid.log": .mutexInvalidAccess, "mutex-wrong-context.log": .mutexHeldWrongContext,
            "signal-unsafe-call.log": .signalUnsafeCall, "signal-errno.log": .signalSpoilsErrno,
            "ignores-thread.log": .ignoresNotEnded, "ignores-main.log": .ignoresNotEnded,
            "data-race-memcpy.log": .dataRace, "data-race-fd.log": .dataRace, "external-race.log": .externalRace,
            "vptr-race.log": .vptrRace, "vptr-use-after-free.log": .vptrUseAfterFree,
            "async-race.log": .swiftAccessRace,
            "async-data-race.log": .dataRace, "runtime-internal-race.log": .dataRace,
            "lock-cycles.log": .lockOrderInversion, "lock-order-one-thread.log": .lockOrderInversion
        ]
        XCTAssertEqual(Set(expected.keys), Set(Self.newKinds))
        for (fixture, kind) in expected {
            let explanation = try explain(fixture)
            XCTAssertEqual(explanation.reports.first?.report.kind, kind, fixture)
            XCTAssertFalse(explanation.text.contains("no plain-words explanation"), fixture)
            XCTAssertTrue(explanation.text.contains("What it is: "), fixture)
            XCTAssertTrue(explanation.text.contains("Usual cures:"), fixture)
            assertNamesNoRuntimeFile(explanation.text)
        }
    }

    func testDestroyOfALockedMutexShowsTheDestroyTheForgottenLockAndTheLock() throws {
        let text = try explain("mutex-destroy-locked.log").text
        assertContains(
            text,
            [
                "Report 1 of 1: destroy of a locked mutex",
                "while it was still locked",
                "Where it was destroyed:\n  in destroy_locked_mutex, destroy_locked.c:21",
                "It was locked here, and not unlocked before that:\n  in drain, destroy_locked.c:9",
                "The lock: M0, inside a block of 48 bytes on the heap allocated by the main thread in destroy_locked_mutex, destroy_locked.c:17.",
                "It was made here:\n  in destroy_locked_mutex, destroy_locked.c:18",
                "lock.withLock { ... }", "goto out"
            ])
    }

    func testUnlockOfAnUnlockedMutexFromCAndFromSwiftsNSLock() throws {
        let c = try explain("mutex-unlock-unlocked.log").text
        assertContains(
            c,
            [
                "unlock of an unlocked mutex", "Where it was unlocked:\n  in flush_stats, unlock_unlocked.c:15",
                "The lock: M0, the global variable stats_lock. TSan first met it when it was locked here:\n  in record_hit, unlock_unlocked.c:8",
                "Only the thread that locked a mutex may unlock it"
            ])
        let swift = try explain("nslock-unlock-unlocked.log").text
        assertContains(
            swift,
            [
                "Where it was unlocked:\n  in Counter.reset(), main.swift:17",
                "It was made here:\n  in Counter.init()",
                "in Swift lock.withLock { ... }"
            ])
        XCTAssertFalse(swift.contains("NSLock.init"), "Foundation's frame is not the place to look")
    }

    func testDoubleLockReadLockAndReadUnlock() throws {
        assertContains(
            try explain("mutex-double-lock.log").text,
            [
                "double lock of a mutex", "overwritten or re-initialised while held (memset",
                "Where it was locked again:\n  in next_request, double_lock.c:21",
                "The lock: M0, the global variable current. TSan first met it when it was locked here:\n  in start_request, double_lock.c:11",
                "no memset, no second pthread_mutex_init"
            ])
        assertContains(
            try explain("rwlock-read-lock-write-locked.log").text,
            [
                "Report 1 of 1: read lock of a write locked mutex",
                "Where it was locked for reading:\n  in read_version, read_lock.c:16",
                "TSan first met it when it was locked here:\n  in reload_settings, read_lock.c:10",
                "never re-initialise (pthread_rwlock_init)"
            ])
        assertContains(
            try explain("rwlock-read-unlock-write-locked.log").text,
            [
                "Report 1 of 1: read unlock of a write locked mutex",
                "Where it was unlocked as a reader:\n  in spin_unlock, read_unlock.c:24",
                "The lock: M0, the global variable table_lock. It was made here:\n  in read_unlock_of_write_locked, read_unlock.c:33",
                "pass __tsan_mutex_read_lock to __tsan_mutex_pre_unlock"
            ])
    }

    func testInvalidMutexUseIsExplainedAndTheFollowingUnlockToo() throws {
        let explanation = try explain("mutex-invalid.log")
        XCTAssertEqual(
            explanation.reports.map(\.report.kind), [.mutexInvalidAccess, .mutexBadUnlock, .mutexInvalidAccess])
        assertContains(
            explanation.text,
            [
                "3 ThreadSanitizer reports in this log.",
                "Where it was used:\n  in send_ping, invalid_mutex.c:13",
                "Where it was used:\n  in send_ping, invalid_mutex.c:14",
                "Where it was made is not known (TSan could no longer restore that stack).",
                "Check what pthread_mutex_lock returns",
                "Reports by kind: use of an invalid mutex: 2, unlock of an unlocked mutex: 1."
            ])
    }

    func testMutexHeldInTheWrongContext() throws {
        assertContains(
            try explain("mutex-wrong-context.log").text,
            [
                "__tsan_check_no_mutexes_held()",
                "Where a lock was still held, though none may be:\n  in run_callback, wrong_context.c:15",
                "TSan first met it when it was locked here:\n  in callback_under_lock, wrong_context.c:20",
                "Do not call callbacks"
            ])
    }

    func testSignalHandlersNameTheHandlerTheCallAndWhatWasInterrupted() throws {
        assertContains(
            try explain("signal-unsafe-call.log").text,
            [
                "Report 1 of 1: signal-unsafe call inside of a signal", "not async-signal-safe",
                "The unsafe call: malloc()",
                "The signal handler:\n  in on_alarm, signal_unsafe.c:10",
                "The signal arrived while the program was here:\n  in malloc_in_signal_handler, signal_unsafe.c:17",
                "DispatchSource.makeSignalSource", "volatile sig_atomic_t"
            ])
        assertContains(
            try explain("signal-errno.log").text,
            [
                "signal handler spoils errno",
                "The signal handler for SIGALRM (signal 14):\n  in on_tick, signal_errno.c:8",
                "The signal arrived while the program was here:\n  in errno_in_signal_handler, signal_errno.c:16",
                "int saved = errno;"
            ])
    }

    func testIgnoresLeftOnAreAReportNotNoReport() throws {
        let thread = try explain("ignores-thread.log")
        XCTAssertEqual(thread.reportCount, 1)
        XCTAssertFalse(thread.text.contains("no ThreadSanitizer report found"))
        XCTAssertFalse(
            thread.text.contains("build with `swift build --sanitize=thread`"), "no advice to rebuild: TSan was on")
        assertContains(
            thread.text,
            [
                "Report 1 of 1: thread T1 finished with ignores enabled",
                "AnnotateIgnoreWritesBegin",
                "The thread: thread T1, created here:\n  in ignores_not_ended, ignores.c:25",
                "The ignore that was never ended began here:\n  in log_line, ignores.c:12",
                "each ...Begin needs its ...End"
            ])
        XCTAssertFalse(thread.reports[0].report.truncated, "the message has no closing line and is whole")
        let main = try explain("ignores-main.log")
        assertContains(main.text, ["The thread: the main thread", "began here:\n  in log_line, ignores.c:12"])
    }

    func testRacesThroughInterceptorsNameTheProgramsLine() throws {
        let memcpy = try explain("data-race-memcpy.log").text
        assertContains(
            memcpy,
            [
                "1. Thread T1 wrote 4 bytes (through memcpy: a copy of a struct or a buffer)\n     in apply_update, memcpy_race.c:11",
                "2. Thread T2 read 4 bytes (through memcpy: a copy of a struct or a buffer)\n     in read_timeout, memcpy_race.c:17",
                "The memory: the global variable shared_config (72 bytes)."
            ])
        let fd = try explain("data-race-fd.log").text
        assertContains(
            fd,
            [
                "1. Thread T1 read 8 bytes (through write(), which uses the file descriptor)\n     in write_log, fd_race.c:9",
                "2. Thread T2 wrote 8 bytes (through close(), which uses the file descriptor)\n     in close_log, fd_race.c:15",
                "The memory: TSan's record of file descriptor 3, created by the main thread in fd_race, fd_race.c:20.",
                "Close a descriptor only when every thread is done with it"
            ])
    }

    func testARaceOnAnObjectALibraryDescribes() throws {
        assertContains(
            try explain("external-race.log").text,
            [
                "Report 1 of 1: race on Cache", "(here: \"Cache\")",
                "1. Thread T1 changed the Cache\n     in cache_put, external_race.c:16",
                "2. Thread T2 changed the Cache"
            ])
    }

    func testCPlusPlusObjectLifetimes() throws {
        assertContains(
            try explain("vptr-race.log").text,
            [
                "Report 1 of 1: data race on vptr (ctor/dtor vs virtual call)",
                "hidden pointer to its virtual functions",
                "1. Thread T2 rewrote the object's vptr (a constructor or destructor running)\n     in Listener::~Listener(), main.cpp:11",
                "2. Thread T1 read the object's vptr (to call a virtual function)\n     in deliver(void*), main.cpp:25",
                "std::shared_ptr"
            ])
        assertContains(
            try explain("vptr-use-after-free.log").text,
            [
                "Report 1 of 1: heap-use-after-free (virtual call vs free)",
                "1. Thread T2 freed the memory\n     in LoggingListener::~LoggingListener(), main.cpp:17",
                "2. Then thread T1 called a virtual function on it (reading its vptr)\n     in deliverLate(void*), main.cpp:37",
                "before `delete`"
            ])
    }

    func testAsyncFramesAndConcurrencyPoolThreadsReadPlainly() throws {
        for fixture in ["async-race.log", "async-data-race.log"] {
            let text = try explain(fixture).text
            assertContains(
                text,
                [
                    "in addRound(_:to:) (after an await), main.swift:13",
                    "is a thread of Swift concurrency's pool",
                    "put the shared state in an actor"
                ])
            XCTAssertFalse(text.contains("partial function"), "no compiler jargon:\n\(text)")
            XCTAssertFalse(
                text.contains("Dispatch worker"), "a task's thread is not called a Dispatch worker:\n\(text)")
            XCTAssertFalse(text.contains("1 byte"), "Swift's 1-byte inout marker is not the Int's size:\n\(text)")
        }
    }

    func testARaceSeenOnlyInsideTheSwiftRuntimeSaysSo() throws {
        let text = try explain("runtime-internal-race.log").text
        assertContains(
            text,
            [
                "in swift::MetadataCacheKey::operator==(swift::MetadataCacheKey const&) const (in libswiftCore.so, no source line)",
                "Neither access is in the program's own code: both happened inside the Swift runtime",
                "most likely such a blind spot",
                "`race:swift::MetadataCacheKey::operator==`"
            ])
        XCTAssertFalse(text.contains("crtstuff.c"), "a library's made-up file name is not shown")
        XCTAssertFalse(text.contains("Confine the data"), "no cure for the program's own data: it is not involved")
    }

    func testDistinctLockCyclesStayDistinct() throws {
        let explanation = try explain("lock-cycles.log")
        XCTAssertEqual(explanation.reports.count, 2, "two cycles through pthread_mutex_lock are not one")
        let reports = TSanReportParser.parse(try Fixture.text("lock-cycles.log"))
        XCTAssertNotEqual(reports[0].deduplicationKey, reports[1].deduplicationKey)
        XCTAssertEqual(TSanReportParser.parseUnique(try Fixture.text("lock-cycles.log")).count, 2)
        assertContains(
            explanation.reports[0].explanation, ["in refreshCaches(), main.swift:24", "in evictCaches(), main.swift:30"]
        )
        // Both cycles go through one helper, both(_:_:): its callers tell the orders apart.
        assertContains(
            explanation.reports[1].explanation,
            [
                "Thread T3 took M0\n    in both(_:_:), main.swift:15\n    called from transferAtoB(), main.swift:21",
                "Thread T4 took M1\n    in both(_:_:), main.swift:15\n    called from transferBtoA(), main.swift:22"
            ])
        let summaries = reports.map(ReportSummary.oneLine)
        XCTAssertTrue(summaries[0].contains("refreshCaches()") && summaries[1].contains("both("), "\(summaries)")
        XCTAssertFalse(summaries.joined().contains("pthread_mutex_lock"), "\(summaries)")
    }

    func testOneThreadTakingTwoLocksInBothOrdersIsOneThread() throws {
        let text = try explain("lock-order-one-thread.log").text
        assertContains(
            text,
            [
                "The main thread took these locks in both orders, at different times:",
                "It took M0\n    in placeOrder(Int), main.swift:12\n    called from top-level code, main.swift:29\n"
                    + "  and then M1, still holding M0\n    in placeOrder(Int), main.swift:13",
                "It took M1\n    in restock(Int), main.swift:21",
                "Why it can hang: with one thread it cannot, yet.",
                "one thread holds M0 and wants M1, while another holds M1 and wants M0"
            ])
        XCTAssertFalse(text.contains("the main thread holds M0 and wants M1, while the main thread"), text)
    }

    func testStacksShowEveryFrameMarkedByWhoseCodeItIs() throws {
        let plain = try explain("nslock-unlock-unlocked.log").text
        XCTAssertFalse(plain.contains("call chain"))
        let text = try explain("nslock-unlock-unlocked.log", showStacks: true).text
        assertContains(
            text,
            [
                "call chain, innermost first:",
                "#0 pthread_mutex_unlock (ThreadSanitizer runtime)",
                "#1 Counter.reset(), main.swift:17",
                "#2 top-level code, main.swift:25",
                "#3 __libc_start_call_main (C library)",
                // The mutex's creation stack, through Foundation.
                "#1 NSLock.init() (Foundation)"
            ])
        let allocation = try explain("mutex-destroy-locked.log", showStacks: true).text
        assertContains(
            allocation, ["#0 malloc (ThreadSanitizer runtime)", "#1 destroy_locked_mutex, destroy_locked.c:17"])
    }

    func testJSONCarriesTheKindsAndEveryStack() throws {
        let explanation = try explain("mutex-invalid.log")
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(explanation)) as? [String: Any])
        XCTAssertEqual(
            object["kinds"] as? [String: Int], ["use of an invalid mutex": 2, "unlock of an unlocked mutex": 1])
        let first = try XCTUnwrap((object["reports"] as? [[String: Any]])?.first?["report"] as? [String: Any])
        XCTAssertEqual(first["kind"] as? String, "use of an invalid mutex")
        let stack = try XCTUnwrap((first["stacks"] as? [[[String: Any]]])?.first)
        XCTAssertEqual(
            stack.map { $0["function"] as? String }, ["pthread_mutex_lock", "send_ping", "lock_destroyed_mutex", "main"]
        )
        XCTAssertEqual(
            stack.map { $0["origin"] as? String }, ["ThreadSanitizer runtime", "user code", "user code", "user code"])
        XCTAssertNotNil(first["locationFrames"] as? [Any])
    }
}
