import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

#if canImport(Glibc)
    import Glibc
#endif

/// The parent must survive whatever a child does. These children are small shell scripts
/// that misbehave on purpose.
final class ChildRunnerTests: XCTestCase {
    func shell(
        _ script: String, stallTimeout: Double = 5, crashGrace: Double = 0.5, startupTimeout: Double? = nil,
        outputLimit: Int = 1 << 20
    ) -> ChildOutcome {
        var request = ChildRequest(
            executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script],
            environment: ["PATH": "/usr/bin:/bin"], stallTimeout: stallTimeout, crashGrace: crashGrace,
            outputLimit: outputLimit)
        request.startupTimeout = startupTimeout
        return ChildRunner.run(request)
    }

    static let clean =
        #"RACELAB-RESULT {"iterationsRun":3,"failures":[],"tsanReports":0,"elapsedSeconds":1,"notes":[],"metrics":{},"tsanEnabled":true}"#

    func testResultLineIsReadFromItsOwnChannel() {
        let outcome = shell("echo 'lab chatter'; echo '\(Self.clean)' >&3; echo 'WARNING: noise' >&2")
        XCTAssertEqual(outcome.ending, .exited(0))
        XCTAssertEqual(outcome.result?.iterationsRun, 3)
        XCTAssertEqual(outcome.otherOutput, ["lab chatter"])
        XCTAssertEqual(outcome.stderr, "WARNING: noise\n")
    }

    /// Lab code printing a result line on stdout is chatter: the channel is descriptor 3 alone.
    func testAResultLineOnStdoutIsNotAResult() {
        let outcome = shell("echo '\(Self.clean)'")
        XCTAssertTrue(outcome.results.isEmpty)
        XCTAssertEqual(outcome.otherOutput.count, 1)
    }

    /// The child's working directory is the one the request names, and nothing of the parent's
    /// descriptors beyond 0-3 reaches it.
    func testChildStartsInItsFolderWithOnlyItsOwnDescriptors() throws {
        let folder = try RunFolder.make()
        defer { folder.remove() }
        var request = ChildRequest(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "pwd; ls /dev/fd | sort -n | tr '\\n' ' '"],
            environment: ["PATH": "/usr/bin:/bin"], directory: folder.url, stallTimeout: 5)
        request.crashGrace = 0.5
        let outcome = ChildRunner.run(request)
        XCTAssertEqual(outcome.otherOutput.first, folder.url.path)
        // 0-3, plus the descriptor `ls` opens to read the folder.
        XCTAssertEqual(
            outcome.otherOutput.last?.split(separator: " ").compactMap { Int($0) }.filter { $0 != 4 }, [0, 1, 2, 3])
    }

    func testCrashBySignal() {
        let outcome = shell("echo 'Fatal error: Index out of range' >&2; kill -SEGV $$")
        XCTAssertEqual(outcome.ending, .signaled(SIGSEGV))
        XCTAssertNil(outcome.result)
    }

    func testHangIsKilledAndWhereItWasIsKept() {
        let started = Date()
        let outcome = shell(
            #"echo 'RACELAB-PROGRESS {"iteration":2,"checkpointHits":7,"threads":[{"threadID":9,"isMainThread":false,"checkpoint":"lock.a","hit":1,"secondsAgo":0}]}' >&3; exec sleep 60"#,
            stallTimeout: 1)
        XCTAssertEqual(outcome.ending, .killedAfterStall)
        XCTAssertLessThan(
            Date().timeIntervalSince(started), 55, "the watchdog, not the child (asleep for 60 s), ended it")
        XCTAssertEqual(outcome.lastProgress?.iteration, 2)
        XCTAssertEqual(outcome.lastProgress?.threads.first?.checkpoint, "lock.a")
        #if os(Linux)
            // `sleep` is the child's only thread: asleep in the kernel as it was killed.
            XCTAssertEqual(outcome.threadsAtKill?.hasPrefix("main thread in "), true, outcome.threadsAtKill ?? "nil")
            XCTAssertEqual(outcome.threadsAtKill?.hasSuffix("; no other thread"), true, outcome.threadsAtKill ?? "nil")
        #endif
    }

    /// The kernel's view of a thread, in words.
    func testAThreadsStateIsSaidInWords() {
        XCTAssertEqual(ThreadStates.activity(stat: "12 (racelab-child) R 1 2 3", wchan: "0"), "running")
        XCTAssertEqual(ThreadStates.activity(stat: "12 (a (b) c) S 1 2 3", wchan: "futex_do_wait"), "in futex_do_wait")
        XCTAssertEqual(ThreadStates.activity(stat: "12 (x) S 1 2 3", wchan: "0"), "waiting")
        XCTAssertEqual(
            ThreadStates.activity(stat: "12 (x) S 1 2 3", wchan: "poll_schedule_timeout.constprop.0"),
            "in poll_schedule_timeout")
        XCTAssertEqual(ThreadStates.activity(stat: "12 (x) D 1 2 3", wchan: nil), "waiting")
        XCTAssertEqual(ThreadStates.activity(stat: "12 (x) t 1 2 3", wchan: nil), "stopped")
        XCTAssertEqual(ThreadStates.activity(stat: "garbage", wchan: nil), "unknown")
        XCTAssertNil(ThreadStates.describe(pid: -1))
    }

    /// A lab child starting slowly (a loaded machine: its binary read from disk, TSan mapping
    /// its memory) is not a hang: before its first progress line the startup allowance applies.
    func testASlowStartIsNotAHang() {
        let outcome = shell(
            #"sleep 2; echo 'RACELAB-PROGRESS {"iteration":1,"checkpointHits":0,"threads":[]}' >&3; echo '\#(Self.clean)' >&3"#,
            stallTimeout: 1, startupTimeout: 30)
        XCTAssertEqual(outcome.ending, .exited(0), "2 s to start, with a 1 s watchdog and 30 s to start")
        XCTAssertEqual(outcome.result?.iterationsRun, 3)
    }

    /// One that never starts is killed, as a run that cannot be judged, not a hang of the lab.
    func testAChildThatNeverStartsIsKilledAsNotStarted() {
        let started = Date()
        let outcome = shell("exec sleep 60", stallTimeout: 0.5, startupTimeout: 1.5)
        XCTAssertEqual(outcome.ending, .killedBeforeStart)
        XCTAssertLessThan(Date().timeIntervalSince(started), 50, "the watchdog, not the child, ended it")
        let verdict = VerdictBuilder.verdict(
            plan: ScenarioPlan(lab: "list-adder", variant: "fixed", mode: .stress, iterations: 1, seed: 1),
            kind: .fixed, child: outcome, reproduce: "r")
        XCTAssertFalse(verdict.fired(.hang), "no lab code ran: not a hang")
        XCTAssertNotNil(verdict.harnessError)
    }

    func testFailuresSentBeforeAHangAreKept() {
        let outcome = shell(
            #"echo 'RACELAB-FAILURE {"iteration":1,"message":"thumbnail never finished","file":"/x/Scenario.swift","line":7}' >&3; echo 'RACELAB-PROGRESS {"iteration":1,"checkpointHits":3,"threads":[]}' >&3; exec sleep 60"#,
            stallTimeout: 1)
        XCTAssertEqual(outcome.ending, .killedAfterStall)
        XCTAssertNil(outcome.result)
        XCTAssertEqual(outcome.streamedFailures.map(\.message), ["thumbnail never finished"])
        XCTAssertEqual(outcome.otherOutput, [], "a failure line is a channel message, not lab chatter")
    }

    func testProgressKeepsAChildAlive() throws {
        // Between two lines the child waits 0.3 s with bash's own `read -t`, on a pipe no one
        // writes to: it starts no process, so whatever it waits for a CPU on a busy machine is
        // its own, which the watchdog does not count (a `sleep` process's would count).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let silence = folder.appendingPathComponent("silence").path
        XCTAssertEqual(mkfifo(silence, 0o600), 0)
        let lines = (1...8).map {
            #"echo 'RACELAB-PROGRESS {"iteration":\#($0),"checkpointHits":0,"threads":[]}' >&3; read -t 0.3 -u 9;"#
        }.joined()
        let request = ChildRequest(
            executable: URL(fileURLWithPath: "/bin/bash"), arguments: ["-c", "exec 9<>'\(silence)'; \(lines) exit 0"],
            environment: ["PATH": "/usr/bin:/bin"], stallTimeout: 1, crashGrace: 0.5)
        let outcome = ChildRunner.run(request)
        XCTAssertEqual(outcome.ending, .exited(0), "2.4 s of steady progress is not a hang with a 1 s watchdog")
    }

    func testCrashThatNeverDiesIsKilledAsACrash() {
        let outcome = shell("echo 'ThreadSanitizer:DEADLYSIGNAL' >&2; exec sleep 60", stallTimeout: 30)
        XCTAssertEqual(outcome.ending, .killedAfterCrash)
    }

    /// A crash whose line comes shortly before the stall limit (TSan's crash handling, slow on a
    /// loaded machine) is a crash, not a hang: here the crash grace has not run out when the
    /// stall limit does.
    func testACrashSeenBeforeTheStallLimitIsACrash() {
        let outcome = shell(
            "echo 'Fatal error: Index out of range' >&2; exec sleep 60", stallTimeout: 1, crashGrace: 30)
        XCTAssertEqual(outcome.ending, .killedAfterCrash)
    }

    func testGarbageAndEndlessOutputAreCapped() {
        let outcome = shell(
            "head -c 3000000 /dev/urandom; head -c 3000000 /dev/urandom >&2; head -c 3000000 /dev/urandom >&3; echo 'RACELAB-RESULT {not json' >&3",
            stallTimeout: 60, outputLimit: 100_000)  // about the caps, not the watchdog: a busy machine is slow here
        XCTAssertEqual(outcome.ending, .exited(0))
        XCTAssertTrue(outcome.stderrTruncated)
        XCTAssertLessThanOrEqual(outcome.stderr.utf8.count, 400_000, "at most the limit (plus UTF-8 repair) is kept")
        XCTAssertNil(outcome.result)
    }

    func testMalformedResultIsReported() {
        let outcome = shell("echo 'RACELAB-RESULT {not json' >&3")
        XCTAssertNil(outcome.result)
        XCTAssertEqual(outcome.malformedLines, ["RACELAB-RESULT {not json"])
    }

    func testMissingExecutable() {
        let outcome = ChildRunner.run(
            ChildRequest(executable: URL(fileURLWithPath: "/nonexistent/racelab"), arguments: [], environment: [:]))
        guard case .failedToStart = outcome.ending else {
            return XCTFail("expected failedToStart, got \(outcome.ending)")
        }
    }

    /// The tests that count processes read the process table from /proc (Linux); elsewhere the
    /// harness kills a child's process group only, and they are skipped.
    func requireProcessTable() throws {
        try XCTSkipIf(ProcessTree.snapshot().isEmpty, "no /proc here: the process table is read on Linux only")
    }

    /// Counts processes whose command line holds `marker`.
    func processes(_ marker: String) -> Int {
        let all = ProcessTree.snapshot()
        XCTAssertGreaterThan(all.count, 1, "/proc is readable")
        return all.filter { ProcessTree.readFile("/proc/\($0.pid)/cmdline")?.contains(marker) == true }.count
    }

    /// A unique long sleep: its command line ("sleep 300.123456789") is the marker.
    func marker() -> String { "300.\(UInt32.random(in: 100_000_000...999_999_999))" }

    /// The counter the next tests rely on does see a live process.
    func testTheProcessCounterSeesALiveProcess() throws {
        try requireProcessTable()
        let mark = marker()
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = [mark]
        try sleeper.run()
        defer {
            sleeper.terminate()
            sleeper.waitUntilExit()
        }
        usleep(100_000)
        XCTAssertEqual(processes(mark), 1)
    }

    func testKilledChildLeavesNoProcessBehind() throws {
        try requireProcessTable()
        let mark = marker()
        _ = shell("exec sleep \(mark)", stallTimeout: 1)
        XCTAssertEqual(processes(mark), 0)
    }

    /// A process the child started that keeps the child's pipes open (posix_spawn of a long
    /// sleep) neither keeps the parent waiting nor outlives the run.
    func testAChildsOwnProcessHoldingItsPipesIsKilledAndNotWaitedFor() throws {
        try requireProcessTable()
        let mark = marker()
        let started = Date()
        let outcome = shell("sleep \(mark) & echo '\(Self.clean)' >&3; exit 0", stallTimeout: 30)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the parent did not wait for the sleeping grandchild")
        XCTAssertEqual(outcome.ending, .exited(0), "the child itself ended normally: not a crash")
        XCTAssertEqual(outcome.result?.iterationsRun, 3)
        XCTAssertGreaterThanOrEqual(outcome.leftoverProcesses, 1)
        XCTAssertEqual(processes(mark), 0, "the grandchild is gone")
    }

    /// A grandchild that left the child's session (setsid) and lost its parent is still found
    /// and killed.
    func testAnEscapedGrandchildIsKilledToo() throws {
        try requireProcessTable()
        let mark = marker()
        let outcome = shell(
            "setsid sleep \(mark) </dev/null >/dev/null 2>&1 & sleep 0.6; echo '\(Self.clean)' >&3", stallTimeout: 30)
        XCTAssertEqual(outcome.ending, .exited(0))
        XCTAssertEqual(processes(mark), 0, "the escaped grandchild is gone")
    }

    /// A child that forks a copy of itself spinning at full speed, then hangs: the watchdog kills
    /// both, and the parent returns.
    func testAForkedSpinnerDoesNotOutliveAHungChild() throws {
        try requireProcessTable()
        let mark = marker()
        let started = Date()
        let outcome = shell("sh -c 'while :; do :; done # \(mark)' & exec sleep \(mark)", stallTimeout: 1)
        XCTAssertEqual(outcome.ending, .killedAfterStall)
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
        XCTAssertEqual(processes(mark), 0)
    }

    /// Two result lines: the second came from lab code. Not a pass, whichever says "clean".
    func testTwoResultLinesAreAForgery() {
        let outcome = shell("echo '\(Self.clean)' >&3; echo '\(Self.clean)' >&3")
        XCTAssertEqual(outcome.results.count, 2)
        XCTAssertNil(outcome.result)
        let plan = ScenarioPlan(lab: "l", variant: "exercise", mode: .scripted, iterations: 3, seed: 1)
        let verdict = VerdictBuilder.verdict(plan: plan, kind: .exercise, child: outcome, reproduce: "r")
        XCTAssertTrue(verdict.wasForged, verdict.harnessError ?? "")
    }

    /// A forged clean result written before the harness's own cannot hide the failure the
    /// harness streamed: the run is still caught.
    func testAForgedCleanResultCannotHideAStreamedFailure() {
        let failure =
            #"RACELAB-FAILURE {"iteration":1,"message":"the total went back","file":"/x/Scenario.swift","line":44}"#
        let outcome = shell("echo '\(Self.clean)' >&3; echo '\(failure)' >&3")
        let plan = ScenarioPlan(lab: "l", variant: "exercise", mode: .scripted, iterations: 3, seed: 1)
        let verdict = VerdictBuilder.verdict(plan: plan, kind: .exercise, child: outcome, reproduce: "r")
        XCTAssertTrue(verdict.fired(.invariant))
        XCTAssertTrue(verdict.wasForged, "a result before other lines is a forgery")
    }

    /// A load-time thief writes its clean result before anything else, then the run crashes
    /// before the harness can send its own: one result line, but not the last line, so forged.
    func testAResultBeforeProgressIsAForgery() {
        let progress = #"RACELAB-PROGRESS {"checkpointHits":0,"iteration":1,"threads":[]}"#
        let outcome = shell("echo '\(Self.clean)' >&3; echo '\(progress)' >&3; kill -SEGV $$")
        XCTAssertEqual(outcome.results.count, 1)
        XCTAssertEqual(outcome.linesAfterResult, 1)
        let plan = ScenarioPlan(lab: "l", variant: "exercise", mode: .scripted, iterations: 3, seed: 1)
        let verdict = VerdictBuilder.verdict(plan: plan, kind: .exercise, child: outcome, reproduce: "r")
        XCTAssertTrue(verdict.wasForged, verdict.harnessError ?? "")
        XCTAssertTrue(verdict.fired(.crash), "the crash is still told")
    }

    /// TSan's exit status is the parent's own evidence: a clean result from a child that TSan
    /// ended with 66 is a detection.
    func testTSanExitStatusCountsEvenWithACleanResult() {
        let outcome = shell("echo '\(Self.clean)' >&3; exit 66")
        let plan = ScenarioPlan(lab: "l", variant: "exercise", mode: .scripted, iterations: 3, seed: 1)
        let verdict = VerdictBuilder.verdict(plan: plan, kind: .exercise, child: outcome, reproduce: "r")
        XCTAssertTrue(verdict.fired(.tsan))
    }

    /// An endless line on the channel (no newline) costs bounded memory and is not a result.
    func testAnEndlessChannelLineIsDropped() {
        let outcome = shell(
            "printf 'RACELAB-RESULT {' >&3; head -c 5000000 /dev/zero | tr '\\0' 'x' >&3", outputLimit: 1 << 20)
        XCTAssertTrue(outcome.results.isEmpty)
        XCTAssertTrue(outcome.channelTruncated)
    }

    /// A run's CPU time (its profile) is the child's and that of every process it waited for:
    /// under the sandbox, the child is `unshare`, and the lab's process one it waits for. Here
    /// the busy process is a subshell the child waits for, and it says what it used (`times`).
    func testCPUTimeCountsTheProcessesTheChildWaitedFor() throws {
        let busy = "( i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; times ); true"
        let plain = ChildRequest(
            executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", busy],
            environment: ["PATH": "/usr/bin:/bin"], stallTimeout: 30)
        var requests = [("plain", plain)]
        let folder = try RunFolder.make()
        defer { folder.remove() }
        if let (program, wrapped) = ChildSandbox.wrap(plain.executable, arguments: plain.arguments, folder: folder.url)
        {
            var sandboxed = plain
            sandboxed.executable = program
            sandboxed.arguments = wrapped
            requests.append(("in the sandbox", sandboxed))
        }
        for (name, request) in requests {
            let outcome = ChildRunner.run(request)
            XCTAssertEqual(outcome.ending, .exited(0), name)
            // The subshell's own user and system time: "0m0.460000s 0m0.010000s".
            let times = try XCTUnwrap(outcome.otherOutput.first, name).split(separator: " ")
            let used = times.map { time -> Double in
                let parts = time.dropLast().split(separator: "m").compactMap { Double($0) }
                return parts.count == 2 ? parts[0] * 60 + parts[1] : 0
            }.reduce(0, +)
            XCTAssertGreaterThan(used, 0.05, "\(name): the subshell was busy")
            let cpu = try XCTUnwrap(outcome.clock.cpuSeconds, name)
            XCTAssertGreaterThanOrEqual(cpu, used - 0.02, "\(name): the waited-for subshell's time is counted")
            XCTAssertLessThan(cpu, used + 2, "\(name): not much more than it")
            XCTAssertGreaterThan(outcome.clock.reapedAtNanoseconds ?? 0, outcome.clock.spawnedAtNanoseconds, name)
        }
    }
}

/// The watchdog counts only the time the parent watched.
final class StallWatchTests: XCTestCase {
    /// Time a child's threads spent waiting for a CPU is not time without progress: a starved
    /// child is not stuck; a deadlocked one (it waits for nothing the CPU can give) is.
    func testTheWatchdogDoesNotCountTimeTheChildWaitedForACPU() {
        XCTAssertEqual(CPUWait.waitedNanoseconds(schedstat: "254542 196150 1\n"), 196_150)
        XCTAssertNil(CPUWait.waitedNanoseconds(schedstat: "garbage"))
        #if os(Linux) && !RACELAB_NO_LINUX_FACILITIES
            XCTAssertNotNil(CPUWait.threadWaits(of: getpid()), "this kernel keeps scheduler statistics")
        #endif
        let start = Date()
        var starved = StallWatch(timeout: 1)
        var stuck = StallWatch(timeout: 1)
        var starvedStalled = false
        var stuckStalled = false
        for tick in 0...100 {
            let now = start + Double(tick) * 0.02
            starvedStalled = starved.stalled(signature: "1/5", now: now, waitedForCPU: 0.03)  // two threads, ready
            stuckStalled = stuck.stalled(signature: "1/5", now: now)
        }
        XCTAssertFalse(starvedStalled, "2 s of waiting for a CPU is not 2 s without progress")
        XCTAssertTrue(stuckStalled, "2 s with the CPU it wanted and no progress: stuck")
    }

    /// Waits are read 4 times a second, not at every look: each reading is taken off the looks
    /// that follow it, whichever they are.
    func testAWaitReadNowAndThenIsTakenOffTheLooksThatFollow() {
        var watch = StallWatch(timeout: 1)
        let start = Date()
        var stalled = false
        for tick in 0...150 {  // 3 s of looks, 20 ms apart; a reading every 250 ms
            let waited = tick > 0 && tick % 12 == 0 ? 0.24 : 0
            stalled = stalled || watch.stalled(signature: "1/5", now: start + Double(tick) * 0.02, waitedForCPU: waited)
        }
        XCTAssertFalse(stalled, "3 s, nearly all of it spent waiting for a CPU: about 0.25 s watched")
    }

    /// Threads wait side by side: the most starved one says how long the child was held back,
    /// not their sum (4 spinning threads on 2 CPUs would otherwise never be watched at all).
    func testTheLongestWaitOfOneThreadCountsNotTheSum() {
        let before: [String: UInt64] = ["10": 1_000_000_000, "11": 500_000_000, "12": 9_000_000_000]
        let after: [String: UInt64] = ["10": 1_400_000_000, "11": 800_000_000, "12": 100_000_000, "13": 200_000_000]
        // 10 waited 0.4 s, 11 0.3 s, 13 (new) 0.2 s; 12 reads less: a new thread with a reused id.
        XCTAssertEqual(CPUWait.longestWait(from: before, to: after), 0.4, accuracy: 1e-9)
        XCTAssertEqual(CPUWait.longestWait(from: [:], to: [:]), 0)
    }

    /// A story that holds a lab thread and waits, with a limit, is not the lab hanging: up to
    /// the wait's limit of that silence is the story's. Past it, or with no wait said, the
    /// watchdog counts again; and a wait is granted once (an outer wait coming back after an
    /// inner one, or the same wait said again, grants nothing more).
    func testAStoryWaitWhileItHoldsAThreadIsNotCountedUpToItsLimit() {
        let start = Date()
        func look(
            _ watch: inout StallWatch, from: Double = 0, for seconds: Double, wait: (number: Int, seconds: Double)?
        ) -> Bool {
            var stalled = false
            for tick in 0...Int(seconds / 0.02) {
                let now = start + from + Double(tick) * 0.02
                stalled = watch.stalled(signature: "1/5", now: now, storyWait: wait) || stalled
            }
            return stalled
        }
        var excused = StallWatch(timeout: 1)
        XCTAssertFalse(
            look(&excused, for: 3.5, wait: (7, 3)), "3.5 s of silence, 3 of them the story's own wait: 0.5 s watched")
        var tooLong = StallWatch(timeout: 1)
        XCTAssertTrue(look(&tooLong, for: 4.5, wait: (7, 3)), "past the wait's limit the lab's silence counts")
        var noWait = StallWatch(timeout: 1)
        XCTAssertTrue(look(&noWait, for: 1.5, wait: nil), "no story wait: a stall")
        var renewed = StallWatch(timeout: 1)
        XCTAssertFalse(look(&renewed, for: 2.5, wait: (8, 2)))
        XCTAssertFalse(look(&renewed, from: 2.52, for: 0.3, wait: (9, 0.2)), "an inner wait: 0.2 s more")
        XCTAssertTrue(
            look(&renewed, from: 2.84, for: 1.2, wait: (8, 2)), "the outer wait again: nothing more, a stall")
    }

    /// A heartbeat's wait is part of what the watchdog reads from it, decoded once.
    func testAHeartbeatNamesTheStorysWait() {
        let beat = ChildChannel.Progress(
            iteration: 3, checkpointHits: 40, threads: [], storyWait: .init(number: 9, seconds: 2.5))
        let read = ChildRunner.HeartbeatSignatures(ChildChannel.encode(beat))
        XCTAssertEqual(read.progress, "3/40")
        XCTAssertEqual(read.iteration, "3")
        XCTAssertEqual(read.storyWait?.number, 9)
        XCTAssertEqual(read.storyWait?.seconds, 2.5)
        let plain = ChildRunner.HeartbeatSignatures(
            ChildChannel.encode(ChildChannel.Progress(iteration: 3, checkpointHits: 40, threads: [])))
        XCTAssertEqual(plain.progress, "3/40")
        XCTAssertNil(plain.storyWait)
    }

    func testSilenceForTheTimeoutIsAStall() {
        var watch = StallWatch(timeout: 1)
        let start = Date()
        XCTAssertFalse(watch.stalled(signature: "1/5", now: start))
        var stalled = false
        for tick in 1...60 { stalled = watch.stalled(signature: "1/5", now: start + Double(tick) * 0.02) }
        XCTAssertTrue(stalled, "1.2 s of watched silence")
    }

    func testProgressResetsTheClock() {
        var watch = StallWatch(timeout: 1)
        let start = Date()
        for tick in 0...100 {
            let signature = "1/\(tick / 25)"  // progress every half second
            XCTAssertFalse(watch.stalled(signature: signature, now: start + Double(tick) * 0.02))
        }
    }

    func testAPauseOfTheWholeMachineIsNotTheChildsSilence() {
        var watch = StallWatch(timeout: 1)
        let start = Date()
        XCTAssertFalse(watch.stalled(signature: "1/5", now: start))
        // The parent's next look comes 30 s later (suspended machine): not watched time.
        XCTAssertFalse(watch.stalled(signature: "1/5", now: start + 30))
        // Then the child really stays silent while the parent watches.
        var stalled = false
        for tick in 1...60 { stalled = watch.stalled(signature: "1/5", now: start + 30 + Double(tick) * 0.02) }
        XCTAssertTrue(stalled)
    }
}
