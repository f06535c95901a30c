import CompilerCheck
import Foundation
import LabKit
import RaceLabHarness
import XCTest

/// `racelab stress`: runs of any program built with ThreadSanitizer, classified, with RaceLab's
/// preemption loaded into them.
final class ProgramStressTests: XCTestCase {
    // MARK: what a run found

    private func run(
        status: Int32 = 0, signal: Int32? = nil, timedOut: Bool = false, output: String = ""
    ) -> ProgramRun {
        ProgramRun(
            index: 1, seed: 7,
            tool: ToolProcess.Result(status: status, signal: signal, output: output, timedOut: timedOut, seconds: 0.1),
            timeout: 10, tally: "12 3\n")
    }

    /// Runs are made with TSan's own exit status off (exitcode=0): a report alone ends with 0.
    func testAReportIsTheFinding() {
        let found = run(
            status: 0,
            output:
                "==================\nWARNING: ThreadSanitizer: data race (pid=1)\n  Write of size 8 at 0x1 by thread T1:\n    #0 work a.c:3 (a+0x1)\n\nSUMMARY: ThreadSanitizer: data race a.c:3 in work\n==================\nThreadSanitizer: reported 1 warnings\n"
        )
        XCTAssertEqual(found.findings, [.report(kind: "data race")])
        XCTAssertEqual(found.points, 12)
        XCTAssertEqual(found.pauses, 3)
    }

    func testAFailedAssertionIsACrashWithItsLine() {
        let found = run(status: 6, signal: SIGABRT, output: "prog: a.c:9: main: Assertion `x == 1' failed.\n")
        XCTAssertEqual(found.finding(), .crash(signal: SIGABRT, line: "prog: a.c:9: main: Assertion `x == 1' failed."))
        XCTAssertTrue(found.finding()!.description.contains("SIGABRT"), found.finding()!.description)
    }

    func testThreadSanitizersOwnCrashHandlerCountsAsACrash() {
        let found = run(
            status: 66,
            output:
                "ThreadSanitizer:DEADLYSIGNAL\n==1==ERROR: ThreadSanitizer: SEGV on unknown address 0x000000000018\n")
        guard case .crash(nil, let line)? = found.finding() else { return XCTFail("\(found.findings)") }
        XCTAssertNotNil(line)
    }

    func testAHangAnExitStatusAndACleanRun() {
        XCTAssertEqual(run(timedOut: true).finding(), .hang(afterSeconds: 10))
        XCTAssertEqual(run(status: 3).finding(), .exitStatus(3))
        XCTAssertNil(run().finding())
    }

    /// A known problem ignored leaves the next one: a report and a crash in one run.
    func testIgnoredKindsLeaveTheNextFinding() {
        let found = run(
            status: 6, signal: SIGABRT,
            output:
                "WARNING: ThreadSanitizer: thread leak (pid=1)\n  Thread T1 (tid=2, finished) created by main thread at:\n    #0 pthread_create x.c:1 (a+0x1)\n\nSUMMARY: ThreadSanitizer: thread leak x.c:1 in main\nprog: a.c:9: main: Assertion `ok' failed.\n"
        )
        XCTAssertEqual(found.finding(), .report(kind: "thread leak"))
        XCTAssertEqual(found.finding(ignoring: ["report"])?.category, "crash")
        XCTAssertNil(found.finding(ignoring: ["report", "crash"]))
    }

    /// `--ignore`: known kinds, spaces allowed; the first unknown one (in the order given) named.
    func testIgnoredKindsAreReadFromTheirList() throws {
        XCTAssertEqual(try ProgramStress.ignoredCategories(""), [])
        XCTAssertEqual(try ProgramStress.ignoredCategories("report, hang"), ["report", "hang"])
        XCTAssertThrowsError(try ProgramStress.ignoredCategories("crash,leak,oops")) {
            XCTAssertEqual(
                ($0 as? UsageError)?.message,
                "--ignore takes a comma-separated list of report, crash, hang, exit, not 'leak'")
        }
    }

    // MARK: which programs it takes

    func testAScriptOrAProgramWithoutThreadSanitizerIsRefusedAndThisOneTaken() throws {
        let folder = try temporaryFolder()
        let script = folder.appendingPathComponent("run.sh")
        try Data("#!/bin/sh\necho hi\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        XCTAssertTrue(StressPreload.problem(with: script)?.contains("not a compiled program") == true)
        XCTAssertTrue(
            StressPreload.problem(with: URL(fileURLWithPath: "/bin/sh"))?.contains("not built with ThreadSanitizer")
                == true)
        XCTAssertTrue(
            StressPreload.problem(with: folder.appendingPathComponent("none"))?.contains("not a program") == true)
        // Debian's ldconfig is statically linked: no dynamic linker to load the preemption.
        if FileManager.default.fileExists(atPath: "/sbin/ldconfig") {
            XCTAssertTrue(
                StressPreload.problem(with: URL(fileURLWithPath: "/sbin/ldconfig"))?.contains("statically linked")
                    == true)
        }
        // The tests run under ThreadSanitizer (make test): this program is one it takes.
        XCTAssertNil(StressPreload.problem(with: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()))
    }

    // MARK: a real program

    /// One small program built with -sanitize=thread, each way it can end: every run classified,
    /// and the preemption seen acting at the program's locks and thread starts (its count of
    /// points), or not loaded at all in a plain run.
    func testAProgramsRunsAreClassifiedAndThePreemptionActsAtItsLocks() throws {
        let program = try buildProgram()
        let preload = StressPreload.library(besides: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
        XCTAssertTrue(FileManager.default.fileExists(atPath: preload.path), "build RaceLab first: \(preload.path)")
        func stress(
            _ mode: String, runs: Int = 1, preempts: Bool = true, timeout: Double = 60,
            schedules: [StressSchedule] = [.pauses, .priority], keepsGoing: Bool = true, seed: UInt64 = 1
        ) -> ProgramStress.Result {
            var stress = ProgramStress(
                program: program, arguments: [mode], runs: runs, seed: seed, timeout: timeout, preempts: preempts,
                keepsGoing: keepsGoing, preload: preload)
            stress.schedules = schedules
            return stress.run()
        }

        // Two threads, each taking a lock 20 times: every lock is 2 points, every unlock 1, and
        // each thread's start and join one more. Over 4 seeds some thread's pace pauses it.
        // Runs 1 and 3 pause, 2 and 4 follow the priority schedule (whose hand-overs count).
        let clean = stress("locked", runs: 4)
        XCTAssertEqual(clean.findings, 0, "\(clean.runs)")
        for run in clean.runs { XCTAssertGreaterThanOrEqual(run.points ?? 0, 2 * 20 * 3 + 4, "\(run)") }
        XCTAssertEqual(clean.runs.map(\.schedule), [.pauses, .priority, .pauses, .priority])
        XCTAssertGreaterThan(clean.runs.filter { $0.schedule == .pauses }.compactMap(\.pauses).reduce(0, +), 0)
        XCTAssertGreaterThan(clean.runs.filter { $0.schedule == .priority }.compactMap(\.pauses).reduce(0, +), 0)
        // A priority run draws its change points from the points the run before it counted.
        XCTAssertEqual(clean.runs[1].steps, clean.runs[0].points)
        XCTAssertTrue(clean.runs.allSatisfy(\.preemptionLoaded))

        // The priority schedule hands the turn over without ThreadSanitizer seeing it: threads that
        // each take a lock of their own around the same counter still race. (A plain run reports
        // it too; what this checks is that one thread at a time, handed over at those locks,
        // adds no ordering between them.)
        let ownLocks = stress("own-locks", runs: 3, schedules: [.priority], keepsGoing: false)
        XCTAssertEqual(ownLocks.firstFinding?.finding()?.category, "report", "\(ownLocks.runs)")

        // A bug that needs the writer stopped between its two critical sections: the priority
        // schedule's change points stop it there (it showed in 2 to 12 runs of 100, by the number
        // of change points, with seed 1 on SCTBench's twostage); 300 runs are allowed.
        let twoStage = stress("two-stage", runs: 300, schedules: [.priority], keepsGoing: false)
        guard case .crash(SIGABRT, _)? = twoStage.firstFinding?.finding(ignoring: ["report"]) else {
            return XCTFail("two-stage not found in 300 priority runs: \(twoStage.runs.count) runs")
        }

        let plain = stress("locked", preempts: false)
        XCTAssertEqual(plain.findings, 0)
        XCTAssertNil(plain.runs[0].points, "nothing is loaded into a plain run")
        XCTAssertFalse(plain.runs[0].preemptionLoaded)

        let race = stress("unlocked")
        // Swift's own exclusivity checks name it an access race; either is the race.
        XCTAssertEqual(race.firstFinding?.finding()?.category, "report", "\(race.runs)")
        XCTAssertTrue(race.firstFindingOutput?.contains("WARNING: ThreadSanitizer:") == true)

        // The program's own exit status is kept beside a report (TSan's own, 66, would hide it).
        let racyExit = stress("unlocked-exit")
        XCTAssertEqual(racyExit.firstFinding?.finding()?.category, "report", "\(racyExit.runs)")
        XCTAssertEqual(racyExit.firstFinding?.finding(ignoring: ["report"]), .exitStatus(3), "\(racyExit.runs)")

        // A crash writes no count, but the library said it was loaded.
        let crash = stress("abort")
        guard case .crash(SIGABRT, _)? = crash.firstFinding?.finding() else { return XCTFail("\(crash.runs)") }
        XCTAssertTrue(crash.runs[0].preemptionLoaded)
        XCTAssertNil(crash.runs[0].points)

        let hang = stress("hang", timeout: 2)
        XCTAssertEqual(hang.firstFinding?.finding(), .hang(afterSeconds: 2))
    }

    func testTheReplayNamesTheSeedTheIgnoredKindsAndTheProgramQuoted() {
        var stress = ProgramStress(
            program: URL(fileURLWithPath: "/tmp/my tool"), arguments: ["--n", "it's"], runs: 5, seed: 100,
            timeout: 10, preempts: true, keepsGoing: false, preload: URL(fileURLWithPath: "/x.so"))
        stress.ignored = ["report"]
        let run = ProgramRun(
            index: 3, seed: 102, ending: .exited(status: 1), reportKinds: [], crashLine: nil, seconds: 1)
        XCTAssertEqual(
            stress.replay(of: run),
            "racelab stress --seed 102 --ignore report --runs 1 -- '/tmp/my tool' --n 'it'\\''s'")
        // A time limit of its own is kept: a hang found in 2 s is not replayed with 10.
        stress.timeout = 2.5
        XCTAssertEqual(
            stress.replay(of: run),
            "racelab stress --seed 102 --ignore report --timeout 2.5 --runs 1 -- '/tmp/my tool' --n 'it'\\''s'")
        // A priority run is replayed with its schedule and the steps its change points came from.
        var priorityRun = run
        priorityRun.schedule = .priority
        priorityRun.steps = 140
        XCTAssertEqual(
            stress.replay(of: priorityRun),
            "racelab stress --seed 102 --schedule priority --steps 140 --ignore report --timeout 2.5 --runs 1 -- '/tmp/my tool' --n 'it'\\''s'"
        )
        // Runs take the schedules in turn, the first run the first.
        XCTAssertEqual((1...3).map { stress.schedule(ofRun: $0) }, [.pauses, .priority, .pauses])
        stress.preempts = false
        XCTAssertNil(stress.schedule(ofRun: 2))
    }

    // MARK: the benchmark

    func testTheBenchmarksListAndTable() throws {
        let folder = URL(fileURLWithPath: "/bench")
        let programs = try StressBenchmark.programs(
            inList: "# a comment\n\nCS.stack bin/stack_bad\nqsort /abs/qsort -n 32 -v\n", folder: folder)
        XCTAssertEqual(
            programs,
            [
                .init(name: "CS.stack", path: "/bench/bin/stack_bad", arguments: []),
                .init(name: "qsort", path: "/abs/qsort", arguments: ["-n", "32", "-v"])
            ])
        XCTAssertThrowsError(try StressBenchmark.programs(inList: "lonely\n", folder: folder))
        XCTAssertThrowsError(try StressBenchmark.programs(inList: "# nothing\n", folder: folder))

        let benchmark = StressBenchmark(
            programs: programs, runs: 100, series: 2, seed: 1, timeout: 3, preload: URL(fileURLWithPath: "/x.so"))
        let table = benchmark.table([
            .init(
                program: "CS.stack",
                ways: [
                    .stress: .init(bug: [2, 6], bugKind: ["crash", "crash"], report: [nil, nil]),
                    .pauses: .init(bug: [nil, 9], bugKind: [nil, "crash"], report: [nil, nil]),
                    .priority: .init(bug: [1, 1], bugKind: ["crash", "crash"], report: [nil, 3]),
                    .plain: .init(bug: [nil, 40], bugKind: [nil, "hang"], report: [nil, nil])
                ])
        ])
        XCTAssertTrue(
            table.contains(
                "| program | bug shows: racelab stress | bug shows: pauses only | bug shows: priority only | bug shows: plain runs | TSan report: racelab stress | TSan report: plain runs |"
            ), table)
        XCTAssertTrue(
            table.contains(
                "| CS.stack | 2/2 (2, 6) | 1/2 (–, 9) | 2/2 (1, 1) | 1/2 (–, 40 hang) | 0/2 (–, –) | 0/2 (–, –) |"),
            table)
        XCTAssertTrue(
            table.contains(
                "| **found in every series** | **1 of 1** | **0 of 1** | **1 of 1** | **0 of 1** | **0 of 1** |"),
            table)
    }

    // MARK: helpers

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "racelab-stress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// The program, in Swift with the C library only (it starts fast): `locked`, `unlocked`,
    /// `unlocked-exit`, `own-locks`, `two-stage`, `abort` or `hang`.
    private func buildProgram() throws -> URL {
        let folder = try temporaryFolder()
        let source = folder.appendingPathComponent("main.swift")
        try Data(
            """
            #if canImport(Glibc)
            import Glibc
            #endif
            var counter = 0
            var lock = pthread_mutex_t()
            pthread_mutex_init(&lock, nil)
            let locked: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { _ in
                for _ in 0..<20 { pthread_mutex_lock(&lock); counter += 1; pthread_mutex_unlock(&lock) }
                return nil
            }
            let unlocked: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { _ in
                for _ in 0..<20 { counter += 1 }
                return nil
            }
            var lockA = pthread_mutex_t()
            var lockB = pthread_mutex_t()
            pthread_mutex_init(&lockA, nil)
            pthread_mutex_init(&lockB, nil)
            let ownLockA: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { _ in
                for _ in 0..<20 { pthread_mutex_lock(&lockA); counter += 1; pthread_mutex_unlock(&lockA) }
                return nil
            }
            let ownLockB: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { _ in
                for _ in 0..<20 { pthread_mutex_lock(&lockB); counter += 1; pthread_mutex_unlock(&lockB) }
                return nil
            }
            // Two stages, each under its own lock: the reader sees the first stage done and the second
            // not yet, only if the writer is stopped between its two critical sections while the
            // reader runs through both of its own.
            var stage = 0
            var second = 0
            let writer: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { _ in
                pthread_mutex_lock(&lock); stage = 1; pthread_mutex_unlock(&lock)
                pthread_mutex_lock(&lock); second = stage + 1; pthread_mutex_unlock(&lock)
                return nil
            }
            let reader: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { _ in
                pthread_mutex_lock(&lock)
                let first = stage
                pthread_mutex_unlock(&lock)
                if first == 0 { return nil }
                pthread_mutex_lock(&lock)
                let then = second
                pthread_mutex_unlock(&lock)
                if then != first + 1 { abort() }
                return nil
            }
            switch CommandLine.arguments.dropFirst().first ?? "" {
            case "abort": abort()
            case "own-locks":
                var threads = [pthread_t(), pthread_t()]
                pthread_create(&threads[0], nil, ownLockA, nil)
                pthread_create(&threads[1], nil, ownLockB, nil)
                for thread in threads { pthread_join(thread, nil) }
            case "two-stage":
                var threads = [pthread_t(), pthread_t()]
                pthread_create(&threads[0], nil, writer, nil)
                pthread_create(&threads[1], nil, reader, nil)
                for thread in threads { pthread_join(thread, nil) }
            case "hang": while true { sleep(1) }
            case "unlocked-exit":
                var threads = [pthread_t(), pthread_t()]
                for index in 0..<2 { pthread_create(&threads[index], nil, unlocked, nil) }
                for thread in threads { pthread_join(thread, nil) }
                exit(3)
            case let mode:
                var threads = [pthread_t(), pthread_t()]
                for index in 0..<2 { pthread_create(&threads[index], nil, mode == "locked" ? locked : unlocked, nil) }
                for thread in threads { pthread_join(thread, nil) }
            }
            """.utf8
        ).write(to: source)
        let compiler: SwiftCompiler
        do { compiler = try SwiftCompiler.locate() } catch { throw XCTSkip("no swiftc here: \(error)") }
        let program = folder.appendingPathComponent("program")
        let result = compiler.run(
            ["-swift-version", "5", "-sanitize=thread", "-Onone", source.path, "-o", program.path])
        XCTAssertEqual(result.status, 0, result.output)
        return program
    }
}
