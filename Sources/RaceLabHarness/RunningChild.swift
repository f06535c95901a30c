import CRaceLabSupport
import Foundation
import LabKit

/// A child `ChildRunner` started, while it runs: what the parent reads of it at each look, for
/// its watchdog (`ChildWatchdog`) to decide on, and the kill the watchdog decides.
struct RunningChild {
    let pid: pid_t
    let stdout: OutputCollector
    let stderr: OutputCollector
    let channel: OutputCollector
    /// The control groups it runs in (their memory read at each scan).
    let group: ChildGroup?
    private(set) var watchdog: ChildWatchdog
    private(set) var clock: ChildClock
    /// Everything the child started, remembered so it can be killed even after it left the
    /// child's session or lost its parent.
    private var tracked: Set<ProcessTree.Entry> = []
    private var lastScan = Date.distantPast
    private var memoryFull = false
    private var lastLine: String?
    private var heartbeat: HeartbeatSignatures?
    /// What the child's threads were doing as the watchdog killed it for no progress.
    private(set) var threadsAtKill: String?
    private let stopWhen: (@Sendable () -> Bool)?
    /// Killed because the parent no longer needed it (`ChildRequest.stopWhen`).
    private(set) var stoppedUnneeded = false

    init(
        pid: pid_t, stdout: OutputCollector, stderr: OutputCollector, channel: OutputCollector,
        request: ChildRequest, clock: ChildClock
    ) {
        self.pid = pid
        self.stdout = stdout
        self.stderr = stderr
        self.channel = channel
        group = request.group
        watchdog = ChildWatchdog(request)
        stopWhen = request.stopWhen
        self.clock = clock
    }

    /// Looks at the child every 20 ms until it ends or its watchdog has it killed: its wait
    /// status (0 for one that could not be reaped), and why it was killed (nil: it ended).
    mutating func watch() -> (status: Int32, killedFor: ChildWatchdog.Reason?) {
        var status: Int32 = 0
        var usage = rusage()
        while true {
            // wait4, not waitpid: its CPU time (with that of every descendant it waited for:
            // the sandbox's `unshare` waits for the lab's process) goes in the profile.
            let done = wait4(pid, &status, WNOHANG, &usage)
            if done == pid { clock.reaped(usage) }
            if done == pid || (done < 0 && errno != EINTR) { return (status, nil) }
            if stopWhen?() == true {
                stoppedUnneeded = true
                return (kill(for: nil), nil)
            }
            let look = look(at: Date())
            if case .kill(let reason) = watchdog.tick(look) { return (kill(for: reason), reason) }
            usleep(20_000)
        }
    }

    /// What the watchdog needs to know of the child now.
    private mutating func look(at now: Date) -> ChildWatchdog.Observation {
        if now.timeIntervalSince(lastScan) > 0.25 {
            lastScan = now
            tracked.formUnion(ProcessTree.descendants(of: pid, in: ProcessTree.recentSnapshot()))
            memoryFull = group?.memoryLimitReached == true
        }
        // A heartbeat is decoded once, as it is read (20 ms looks at 8 children each
        // decoding JSON twice cost the parent half a core).
        let (line, beat) = channel.latestProgress
        if line != nil && clock.firstHeartbeatAtNanoseconds == nil {
            clock.firstHeartbeatAtNanoseconds = rl_monotonic_ns()
        }
        if line != lastLine {
            lastLine = line
            heartbeat = line.map { HeartbeatSignatures($0, decoded: beat) }
        }
        return ChildWatchdog.Observation(
            now: now, heartbeat: heartbeat,
            threadWaits: watchdog.wantsThreadWaits(at: now) ? CPUWait.threadWaits(of: pid) : nil,
            outputCut: stdout.truncated, memoryFull: memoryFull, sawCrashMarker: stderr.sawCrashMarker)
    }

    /// Kills the child and its process group, and reaps it: its wait status. `reason`: the
    /// watchdog's, or nil for a run the parent no longer needs.
    private mutating func kill(for reason: ChildWatchdog.Reason?) -> Int32 {
        tracked.formUnion(ProcessTree.descendants(of: pid, in: ProcessTree.snapshot()))
        if reason?.ending == .killedAfterStall {  // the processes there now, not ones gone since
            let now = ProcessTree.descendants(of: pid, in: ProcessTree.snapshot())
            threadsAtKill = ThreadStates.describe(child: pid, descendants: now.map(\.pid))
        }
        sendSignal(-pid, SIGKILL)
        sendSignal(pid, SIGKILL)
        let reaped = Self.reap(pid, within: 5)
        if let usage = reaped.usage { clock.reaped(usage) }
        return reaped.status
    }

    /// The child is gone; so must be everything it started: what was still alive, now killed.
    mutating func endWhatItStarted() -> [ProcessTree.Entry] {
        tracked.formUnion(ProcessTree.descendants(of: pid, in: ProcessTree.snapshot()))
        let leftovers = tracked.filter { ProcessTree.entry($0.pid)?.startTime == $0.startTime }
        sendSignal(-pid, SIGKILL)
        ProcessTree.kill(Array(leftovers))
        for process in leftovers {
            // A process of the run's that its parent never waited for (the sandbox's `unshare`
            // was killed first): its time is the run's too.
            if let usage = Self.reap(process.pid, within: 1).usage { clock.add(usage) }
        }
        return Array(leftovers)
    }

    /// Waits up to `seconds` for `pid` to be reaped: its wait status (0 if it did not end), and
    /// the resources it used when it was reaped here (nil otherwise).
    static func reap(_ pid: pid_t, within seconds: Double) -> (status: Int32, usage: rusage?) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var status: Int32 = 0
        var usage = rusage()
        while Date() < deadline {
            let done = wait4(pid, &status, WNOHANG, &usage)
            if done == pid { return (status, usage) }
            if done < 0 && errno == ECHILD { return (status, nil) }
            usleep(5_000)
        }
        return (status, nil)
    }
}
