import CRaceLabSupport
import Foundation
import LabKit
import TSanReports

/// How to start one child process and when to give up on it.
public struct ChildRequest: Sendable {
    public var executable: URL
    public var arguments: [String]
    public var environment: [String: String]
    /// The child's working directory (a run's private folder); nil: the parent's.
    public var directory: URL?
    /// Kill the child when its progress (iteration, checkpoint hits) has not changed for this long.
    public var stallTimeout: Double
    /// Kill the child when one iteration has lasted this long, progress or not: a story whose
    /// threads keep reaching checkpoints while it never ends (its main thread blocked for good)
    /// is a hang too. Far above any honest iteration, on any machine: twice the longest wait a
    /// story allows itself (30 s for work to end), with the time the child waited for a CPU left
    /// out. (It was 120 s: the longest part of grading an attacker that never ends.)
    public var iterationTimeout: Double = 60
    /// Before its first progress line the child is starting (loading, ThreadSanitizer setting up
    /// its memory): no lab code has run, and on a machine short of CPU, memory or disk that can
    /// take far longer than the lab's own watchdog allows. Killed after this long without one,
    /// it is a run that could not be judged, never a hang of the code under test. nil: a child
    /// that sends no progress lines (a tool), watched by `stallTimeout` from the start.
    public var startupTimeout: Double?
    /// After a crash marker shows on stderr, how long the child may take to die by itself.
    public var crashGrace: Double
    /// Bytes kept of each output stream; the rest is read and dropped.
    public var outputLimit: Int
    /// After the child and everything it started are gone, how long the parent goes on reading
    /// their pipes until they end. They end at once when nothing holds them any more, so this
    /// is only a cap for a process that could not be killed; on a busy machine the reader may
    /// simply not have been scheduled yet, so the cap is generous (a short one lost the result
    /// line of a clean run, read only half way, under load).
    public var drainGrace: Double = 30
    /// A descriptor the child gets as fd 4 (its sealed TSan suppressions).
    public var inheritedDescriptor: Int32?
    /// The control groups the child runs in (its tasks and memory limited); removed once it is gone.
    public var group: ChildGroup?
    /// A lab child prints little: past `outputLimit` on standard output it is ended (a tool's
    /// output is only cut).
    public var endsOnOutputFlood = false
    /// Asked at each look: true when the parent no longer needs this run (another run of its
    /// lab has already decided the grade); the child is then killed and its outcome says so.
    public var stopWhen: (@Sendable () -> Bool)?

    public init(
        executable: URL, arguments: [String], environment: [String: String], directory: URL? = nil,
        stallTimeout: Double = 10, crashGrace: Double = 1.5, outputLimit: Int = 4 << 20
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.directory = directory
        self.stallTimeout = stallTimeout
        self.crashGrace = crashGrace
        self.outputLimit = outputLimit
    }
}

/// Everything the parent learned from one child, whatever the child did.
public struct ChildOutcome: Sendable {
    public enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// Killed by the watchdog: no progress for `stallTimeout`.
        case killedAfterStall
        /// Killed by the watchdog: it printed a crash but did not die (TSan can spin in its
        /// deadly-signal handler).
        case killedAfterCrash
        /// Killed by the watchdog: no progress line within `startupTimeout` (it never began).
        case killedBeforeStart
        /// Could not be started at all.
        case failedToStart(String)
    }

    public var ending: Ending
    public var stderr: String
    public var stderrTruncated: Bool
    /// A limit of the kernel's the child ran into (ChildGroup), in a learner's words.
    public var limitReached: String?
    /// Lines the child printed on stdout (a lab that prints), capped.
    public var otherOutput: [String]
    public var stdoutTruncated: Bool
    /// Every result line on the channel. The harness sends one; more means a forgery.
    public var results: [ScenarioOutcome]
    /// Invariant failures the child sent as it found them: all a hung or crashed child leaves.
    public var streamedFailures: [InvariantFailure] = []
    /// Channel lines that could not be decoded.
    public var malformedLines: [String]
    public var lastProgress: ChildChannel.Progress?
    /// Every iteration a heartbeat announced, and every exploration point (`RunStory`).
    public var announcedIterations: Set<Int> = []
    public var announcedPoints: Set<String> = []
    public var elapsedSeconds: Double
    /// Where its time went, as the parent saw it (`RunProfile` adds what the child measured).
    public var clock = ChildClock()
    /// Processes the child started that were still alive when it ended (all killed).
    public var leftoverProcesses = 0
    /// The channel was cut (longer than the output limit): its lines cannot be trusted whole.
    public var channelTruncated = false
    /// Why the watchdog killed a child that was still making progress (`.killedAfterStall`).
    public var stallReason: String?
    /// What the child's threads were doing as the watchdog killed it for no progress
    /// (`ThreadStates`): whether the main thread was stuck in a wait or still running.
    public var threadsAtKill: String?
    /// Catalogs on the channel (`racelab-child catalog`).
    public var catalogs: [LabRegistry] = []
    /// What a probe found (`racelab-child probe`).
    public var confinements: [Confinement] = []
    /// Channel lines that came after a result line. The harness sends its result last, so a
    /// result followed by anything (a progress line, say) was not the harness's: a forgery.
    public var linesAfterResult = 0
    /// Killed because the parent no longer needed it (`ChildRequest.stopWhen`): nothing it did
    /// is evidence.
    public var stoppedUnneeded = false

    public init(
        ending: Ending, stderr: String = "", stderrTruncated: Bool = false, otherOutput: [String] = [],
        stdoutTruncated: Bool = false, results: [ScenarioOutcome] = [], streamedFailures: [InvariantFailure] = [],
        malformedLines: [String] = [], lastProgress: ChildChannel.Progress? = nil, elapsedSeconds: Double = 0
    ) {
        self.ending = ending
        self.stderr = stderr
        self.stderrTruncated = stderrTruncated
        self.otherOutput = otherOutput
        self.stdoutTruncated = stdoutTruncated
        self.results = results
        self.streamedFailures = streamedFailures
        self.malformedLines = malformedLines
        self.lastProgress = lastProgress
        self.elapsedSeconds = elapsedSeconds
    }

    /// The one result, when the channel carried exactly one.
    public var result: ScenarioOutcome? { results.count == 1 ? results[0] : nil }
}

/// Runs one child process and survives it: crash, hang, garbage or endless output, processes it
/// starts itself. The child gets a session of its own; everything in it and everything it
/// started (found through /proc) is killed when the run ends, and every wait is bounded.
public enum ChildRunner {
    /// Orphans of a child (a grandchild whose parent died) come back to us rather than to init,
    /// so they can still be found and killed.
    private static let subreaper: Void = { _ = rl_become_subreaper() }()

    public static func run(_ request: ChildRequest) -> ChildOutcome {
        guard let group = request.group else { return runChild(request) }
        // Only as many children at once as fit at their limits (ChildLimits.takeSlot).
        group.limits.takeSlot(for: group)
        defer { group.limits.giveBackSlot() }
        var outcome = runChild(request)
        outcome.limitReached = group.limitReached() ?? outcome.limitReached
        group.remove()
        return outcome
    }

    /// One child from start to end: started, watched (`RunningChild`, its `ChildWatchdog`
    /// deciding) until it ends or is killed, everything it started ended, its output read whole.
    private static func runChild(_ request: ChildRequest) -> ChildOutcome {
        _ = subreaper
        let start = Date()
        var clock = ChildClock()
        clock.spawnedAtNanoseconds = rl_monotonic_ns()
        let spawned = spawn(request)
        guard spawned.pid > 0 else {
            return ChildOutcome(
                ending: .failedToStart("\(request.executable.path): \(String(cString: strerror(spawned.error)))"))
        }
        let pid = pid_t(spawned.pid)
        defer { Interruption.untrack(child: pid) }
        let stdout = OutputCollector(limit: request.outputLimit, lineLimit: 64 << 10, splitLines: true)
        let stderr = OutputCollector(
            limit: request.outputLimit, splitLines: false, crashMarkers: TSanReportParser.crashMarkers)
        let channel = OutputCollector(limit: request.outputLimit, splitLines: true)
        let reader = PipeReader(
            fds: [spawned.stdout_fd, spawned.stderr_fd, spawned.channel_fd], sinks: [stdout, stderr, channel])
        reader.start()
        var child = RunningChild(
            pid: pid, stdout: stdout, stderr: stderr, channel: channel, request: request, clock: clock)
        let (status, killedFor) = child.watch()
        let leftovers = child.endWhatItStarted()
        reader.finish(within: request.drainGrace)
        var outcome = ChildOutcome(
            ending: ending(status: status, killedFor: killedFor, crashed: stderr.sawCrashMarker), stderr: stderr.text,
            stderrTruncated: stderr.truncated,
            otherOutput: Array(stdout.lines.prefix(50)).map { String($0.prefix(500)) },
            stdoutTruncated: stdout.truncated, elapsedSeconds: Date().timeIntervalSince(start))
        outcome.clock = child.clock
        if stderr.text.contains(TSanEnvironment.memoryLimitLine) {
            outcome.limitReached = ChildLimits.memoryReason(endedBy: "ThreadSanitizer")
        }
        if killedFor == .outputFlood {
            outcome.limitReached =
                "it printed more than \(request.outputLimit >> 20) MiB on standard output, the limit for one run: RaceLab ended it"
        }
        // TSan's own symbolizer process may still be finishing; it is no sign of the lab's.
        outcome.leftoverProcesses = leftovers.filter { $0.command != "llvm-symbolizer" }.count
        outcome.stallReason = child.watchdog.stallReason
        outcome.stoppedUnneeded = child.stoppedUnneeded
        outcome.threadsAtKill = child.threadsAtKill
        read(channel, into: &outcome)
        return outcome
    }

    /// Starts the child in a session of its own, its pipes open (`rl_spawn`); a pid of 0 or
    /// less: it could not be started (`error` says why).
    private static func spawn(_ request: ChildRequest) -> rl_spawned {
        let arguments = [request.executable.path] + request.arguments
        let environment = request.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var spawned = rl_spawned()
        _ = Interruption.tracking {
            spawned = withCStrings(arguments) { argv in
                withCStrings(environment) { envp in
                    rl_spawn(
                        request.executable.path, argv, envp, request.directory?.path, request.inheritedDescriptor ?? -1)
                }
            }
            return pid_t(spawned.pid)
        }
        return spawned
    }

    /// How the child ended, from its wait `status` or the watchdog's reason to kill it (`crashed`:
    /// a crash marker showed on its standard error).
    static func ending(status: Int32, killedFor: ChildWatchdog.Reason?, crashed: Bool) -> ChildOutcome.Ending {
        // A crash can look like a stall: TSan's handling of it (symbolising, on a loaded machine)
        // may keep the child silent until the stall limit, with the crash's line read only at
        // the last moment or after the kill. Whatever else it did, a child that crashed crashed.
        if killedFor?.ending == .killedAfterStall, crashed { return .killedAfterCrash }
        if let ending = killedFor?.ending { return ending }
        return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
    }

    /// What the child said on its result channel, once it is over.
    private static func read(_ channel: OutputCollector, into outcome: inout ChildOutcome) {
        outcome.channelTruncated = channel.truncated
        outcome.linesAfterResult = channel.linesAfterResult
        outcome.announcedIterations = channel.announcedIterations
        outcome.announcedPoints = channel.announcedPoints
        for line in channel.lines {
            switch ChildChannel.decode(line) {
            case .progress(let value): outcome.lastProgress = value
            case .failure(let value): outcome.streamedFailures.append(value)
            case .result(let value): outcome.results.append(value)
            case .catalog(let value): outcome.catalogs.append(value)
            case .confinement(let value): outcome.confinements.append(value)
            case .malformed(let text): outcome.malformedLines.append(String(text.prefix(200)))
            }
        }
    }

    /// What the watchdog reads from one heartbeat (`HeartbeatSignatures`), by the name the
    /// tests know it by.
    typealias HeartbeatSignatures = RaceLabHarness.HeartbeatSignatures

    /// `strings` as a NULL-terminated C array for the duration of `body`.
    static func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}

/// `kill(2)`, its result ignored: the process (or group, for a negative pid) may be gone already.
/// (Not called `signal`: that is C's handler installer.)
func sendSignal(_ pid: pid_t, _ number: Int32) { _ = kill(pid, number) }

/// One thread that reads a child's pipes until they all end (or until told to stop), handing
/// each chunk to its collector.
private final class PipeReader: @unchecked Sendable {
    private let fds: [Int32]
    private let sinks: [OutputCollector]
    private let lock = NSLock()
    private var stopAt: Date?
    private let done = DispatchSemaphore(value: 0)

    init(fds: [Int32], sinks: [OutputCollector]) {
        self.fds = fds
        self.sinks = sinks
    }

    func start() {
        Thread.detachNewThread { [self] in
            var open = fds
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while open.contains(where: { $0 >= 0 }) {
                if let stopAt = lock.withLock({ self.stopAt }), Date() >= stopAt { break }
                let ready = open.withUnsafeBufferPointer { rl_poll_readable($0.baseAddress!, 50) }
                for index in open.indices where open[index] >= 0 && ready & (1 << index) != 0 {
                    let count = buffer.withUnsafeMutableBytes { read(open[index], $0.baseAddress, $0.count) }
                    if count > 0 {
                        sinks[index].append(Data(buffer[0..<count]))
                    } else if count == 0 || errno != EINTR {
                        close(open[index])
                        open[index] = -1
                    }
                }
            }
            for fd in open where fd >= 0 { close(fd) }
            done.signal()
        }
    }

    /// Wait until every pipe ended, but at most `seconds` (a process we could not kill may
    /// still hold one open); then stop reading.
    func finish(within seconds: Double) {
        lock.withLock { stopAt = Date(timeIntervalSinceNow: seconds) }
        done.wait()
    }
}
