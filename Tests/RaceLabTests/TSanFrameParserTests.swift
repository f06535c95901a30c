import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

/// Frame lines as TSan prints them for Swift, C and C++, and whose code each frame is.
final class TSanFrameParserTests: XCTestCase {
    func testCPlusPlusNamesWithSpacesAndModulesWithPluses() throws {
        let handler = try XCTUnwrap(
            TSanFrameParser.frame(
                "#2 __tsan::CallUserSignalHandler(__tsan::ThreadState*, bool, bool, int, __sanitizer::__sanitizer_siginfo*, void*) /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp:2222:5 (cKinds+0x83a5e) (BuildId: 207c)"
            ))
        XCTAssertEqual(
            handler.function,
            "__tsan::CallUserSignalHandler(__tsan::ThreadState*, bool, bool, int, __sanitizer::__sanitizer_siginfo*, void*)"
        )
        XCTAssertEqual(handler.line, 2222)
        XCTAssertEqual(handler.origin, .sanitizer)
        let new = try XCTUnwrap(
            TSanFrameParser.frame("#1 operator new(unsigned long) <null> (libstdc++.so.6+0xa958b) (BuildId: 289e)"))
        XCTAssertEqual(new.function, "operator new(unsigned long)")
        XCTAssertNil(new.file)
        XCTAssertEqual(new.module, "libstdc++.so.6")
        XCTAssertEqual(new.origin, .cxxLibrary)
        let constMethod = try XCTUnwrap(
            TSanFrameParser.frame("#0 Cache::get(int) const /src/cache.cpp:40:7 (app+0x10)"))
        XCTAssertEqual(constMethod.function, "Cache::get(int) const")
        XCTAssertEqual(constMethod.file, "/src/cache.cpp")
        XCTAssertEqual(constMethod.origin, .userCode)
        let call = try XCTUnwrap(
            TSanFrameParser.frame(
                "#3 std::function<void ()>::operator()() const /usr/include/c++/12/bits/std_function.h:591:9 (app+0x20)"
            ))
        XCTAssertEqual(call.file, "/usr/include/c++/12/bits/std_function.h")
        let errnoHandler = try XCTUnwrap(
            TSanFrameParser.frame("#0 on_tick /work/fixtures/Sources/CKinds/signal_errno.c:8 (cKinds+0xfcd40)"))
        XCTAssertEqual(errnoHandler.line, 8)
        XCTAssertNil(errnoHandler.column)
        let unknownModule = try XCTUnwrap(TSanFrameParser.frame("#4 <null> <null> (<unknown module>)"))
        XCTAssertNil(unknownModule.module)
        XCTAssertNil(TSanFrameParser.frame("#x not a frame"))
    }

    /// Apple's TSan names frames with atos: demangled names with spaces, base names, no column,
    /// the module with its architecture. Read from the right.
    func testAtosFramesAreReadFromTheRight() throws {
        let closure = try XCTUnwrap(
            TSanFrameParser.frame(
                "#0 closure #1 in Foo.bar() Exercise.swift:39 (racelab-child:arm64+0x1000f0c) (BuildId: 4c4c)"))
        XCTAssertEqual(closure.function, "closure #1 in Foo.bar()")
        XCTAssertEqual(closure.demangled, "closure #1 in Foo.bar()")
        XCTAssertEqual(closure.file, "Exercise.swift")
        XCTAssertEqual(closure.line, 39)
        XCTAssertNil(closure.column)
        XCTAssertEqual(closure.module, "racelab-child")
        XCTAssertEqual(closure.origin, .userCode)
        let noLine = try XCTUnwrap(
            TSanFrameParser.frame("#3 partial apply for closure #2 in Worker.run() (Foundation:arm64e+0x5c1f4)"))
        XCTAssertEqual(noLine.function, "partial apply for closure #2 in Worker.run()")
        XCTAssertNil(noLine.file)
        XCTAssertEqual(noLine.module, "Foundation")
        XCTAssertEqual(noLine.origin, .foundation)
        // Apple's system libraries, by the names atos gives them: never the learner's line.
        for (module, origin) in [
            ("CoreFoundation", FrameOrigin.foundation), ("libsystem_pthread.dylib", .cLibrary),
            ("libsystem_kernel.dylib", .cLibrary), ("libdyld.dylib", .cLibrary), ("libobjc.A.dylib", .foundation),
            ("libdispatch.dylib", .dispatch), ("libswiftCore.dylib", .swiftRuntime)
        ] {
            XCTAssertEqual(FrameOrigin.classify(function: "f", file: nil, module: module), origin, module)
        }
        // A Linux frame is read as before.
        let linux = try XCTUnwrap(TSanFrameParser.frame("#1 $s4main3fooyyF /work/x/main.swift:12:5 (app+0x1234)"))
        XCTAssertEqual(linux.file, "/work/x/main.swift")
        XCTAssertEqual(linux.column, 5)
    }

    func testWhoseCodeEachFrameIs() {
        let cases: [(String, String?, String?, FrameOrigin)] = [
            (
                "pthread_mutex_lock",
                "/home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp", "cKinds",
                .sanitizer
            ),
            (
                "write", "/x/compiler-rt/lib/tsan/rtl/../../sanitizer_common/sanitizer_common_interceptors.inc",
                "cKinds", .sanitizer
            ),
            ("__tsan_memcpy", nil, "cKinds", .sanitizer),
            ("__libc_start_call_main", "csu/../sysdeps/nptl/libc_start_call_main.h", "libc.so.6", .cLibrary),
            ("_dispatch_apply_invoke", "crtstuff.c", "libdispatch.so", .dispatch),
            ("$sSiIgy_SiIegy_TRTA", "Queue.swift.o", "libswiftDispatch.so", .dispatch),
            ("$s10Foundation6NSLockCACycfC", nil, "libFoundation.so", .foundation),
            ("swift_slowAlloc", nil, "libswiftCore.so", .swiftRuntime),
            (
                "swift::runJobInEstablishedExecutorContext(swift::Job*)", "crtstuff.c", "libswift_Concurrency.so",
                .swiftRuntime
            ),
            ("$s9lockOrderSvSgABcfU_To", "/<compiler-generated>", "lockOrder", .compilerGenerated),
            ("$s9lockOrder7worker1yyF", "/work/fixtures/Sources/lockOrder/main.swift", "lockOrder", .userCode),
            ("compute", "/home/me/libfoo/foo.c", "libfoo.so", .userCode),
            ("_CFThreadCreate", nil, "libFoundation.so", .foundation),
            ("mystery", nil, "app", .noSource),
            // A user's code kept in a folder named after LLVM's is still theirs.
            ("Thread1", "/home/me/compiler-rt/test/race.c", "race", .userCode),
            ("bar1", "/home/me/llvm/compiler-rt/lib/tsan/mytest/race.c", "race", .userCode),
            ("helper", "/home/me/sanitizer_common/helper.c", "race", .userCode),
            (
                "__tsan::ProcessPendingSignals(__tsan::ThreadState*)", "/b/llvm/compiler-rt/lib/tsan/rtl/tsan_rtl.cpp",
                "race", .sanitizer
            ),
            ("internal_memcpy", "/b/llvm/compiler-rt/lib/sanitizer_common/sanitizer_libc.cpp", "race", .sanitizer),
            // RaceLab's own layer in front of TSan's interceptors (a lab child), never the learner's line.
            ("pthread_mutex_lock", "/w/Sources/CRaceLabSupport/LabCallInterposers.c", "racelab-child", .raceLab),
            ("sysconf", "/x/.build/checkouts/RaceLab/Sources/CRaceLabSupport/LabCPUs.c", "AppTests.xctest", .raceLab),
            ("lock", "/home/me/App/Sources/App/CRaceLabSupport.swift", "app", .userCode)
        ]
        for (function, file, module, origin) in cases {
            XCTAssertEqual(FrameOrigin.classify(function: function, file: file, module: module), origin, function)
        }
    }

    func testFramesSavedWithoutAnOriginStillKnowWhoseCodeTheyAre() throws {
        let frame = TSanReport.Frame(
            function: "pthread_mutex_lock", demangled: "pthread_mutex_lock",
            file: "/x/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp", line: 1424, column: 3, module: "app")
        XCTAssertFalse(frame.isUserCode)
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(frame)) as? [String: Any])
        json["origin"] = nil
        let old = try JSONDecoder().decode(TSanReport.Frame.self, from: JSONSerialization.data(withJSONObject: json))
        XCTAssertNil(old.origin)
        XCTAssertFalse(old.isUserCode)
    }

    func testTheOneLineSummaryNamesTheProgramsFrameForEveryKind() throws {
        let destroy = try XCTUnwrap(TSanReportParser.parse(try Fixture.text("mutex-destroy-locked.log")).first)
        XCTAssertEqual(
            ReportSummary.oneLine(destroy), "destroy of a locked mutex: in destroy_locked_mutex (destroy_locked.c:21)")
        let memcpy = try XCTUnwrap(TSanReportParser.parse(try Fixture.text("data-race-memcpy.log")).first)
        XCTAssertEqual(
            ReportSummary.oneLine(memcpy),
            "data race: thread T2 read in read_timeout (memcpy_race.c:17) vs thread T1 write in apply_update (memcpy_race.c:11)"
        )
        let ignores = try XCTUnwrap(TSanReportParser.parse(try Fixture.text("ignores-thread.log")).first)
        XCTAssertEqual(
            ReportSummary.oneLine(ignores), "thread finished with ignores enabled: in log_line (ignores.c:12)")
    }
}
