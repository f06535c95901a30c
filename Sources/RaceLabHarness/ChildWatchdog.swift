import Foundation
import LabKit

/// The watchdog of one running child, as a value: the loop that runs the child (`ChildRunner`)
/// reads what it can see at each look, hands it to `tick`, and does what the decision says.
/// Nothing here reads a process, a pipe or the clock, so every decision can be replayed from a
/// list of looks (ChildWatchdogTests).
struct ChildWatchdog {
    /// What the loop saw of the child at one look.
    struct Observation {
        var now: Date
        /// The latest heartbeat, as the watchdog reads it (nil: none came yet).
        var heartbeat: HeartbeatSignatures?
        /// How long each of the child's threads has waited for a CPU (`CPUWait.threadWaits`),
        /// read only when `wantsThreadWaits` says so (nil: not read, or the kernel does not say).
        var threadWaits: [String: UInt64]?
        /// Standard output went past its limit (bytes after it are dropped).
        var outputCut = false
        /// The child's control group is at its memory limit, as last read.
        var memoryFull = false
        /// A crash marker showed on standard error.
        var sawCrashMarker = false
    }

    enum Decision: Equatable {
        case keepWaiting
        /// Kill the child and everything it started, now.
        case kill(Reason)
    }

    enum Reason: Equatable {
        /// More on standard output than the limit, from a child that must print little.
        case outputFlood
        /// Memory at its group's limit: the kernel would make it crawl until the watchdog ended it.
        case memoryFull
        /// A crash marker showed and the child did not die within `crashGrace`.
        case crashedWithoutDying
        /// No progress for `stallTimeout` (or one iteration went on for `iterationTimeout`).
        case stalled
        /// No progress line within `startupTimeout`: it never began.
        case neverStarted

        /// The ending the child's outcome records; nil for a limit it ran into: its ending is the
        /// kill's signal, and the verdict says which limit.
        var ending: ChildOutcome.Ending? {
            switch self {
            case .outputFlood, .memoryFull: nil
            case .crashedWithoutDying: .killedAfterCrash
            case .stalled: .killedAfterStall
            case .neverStarted: .killedBeforeStart
            }
        }
    }

    let stallTimeout: Double
    let iterationTimeout: Double
    let startupTimeout: Double?
    let crashGrace: Double
    let endsOnOutputFlood: Bool
    private var stall: StallWatch
    private var iteration: StallWatch
    /// The last reading of the child's waits for a CPU, and when it was taken.
    private var cpuWaits: (at: Date, threads: [String: UInt64])?
    private var crashSeenAt: Date?
    /// Why the child was found stalled though it still made progress (one iteration that never
    /// ended), in words; kept once said.
    private(set) var stallReason: String?

    /// The watchdog with `ChildRequest`'s meaning of each setting.
    init(
        stallTimeout: Double, iterationTimeout: Double = 60, startupTimeout: Double? = nil, crashGrace: Double = 1.5,
        endsOnOutputFlood: Bool = false
    ) {
        self.stallTimeout = stallTimeout
        self.iterationTimeout = iterationTimeout
        self.startupTimeout = startupTimeout
        self.crashGrace = crashGrace
        self.endsOnOutputFlood = endsOnOutputFlood
        stall = StallWatch(timeout: stallTimeout)
        iteration = StallWatch(timeout: iterationTimeout)
    }

    init(_ request: ChildRequest) {
        self.init(
            stallTimeout: request.stallTimeout, iterationTimeout: request.iterationTimeout,
            startupTimeout: request.startupTimeout, crashGrace: request.crashGrace,
            endsOnOutputFlood: request.endsOnOutputFlood)
    }

    /// Whether the next look should read the child's waits for a CPU. Only of a child silent for
    /// a quarter of a second, at most 4 times a second: reading every thread's statistics at
    /// each look would cost more than the children.
    func wantsThreadWaits(at now: Date) -> Bool {
        max(stall.watched, iteration.watched) >= 0.25
            && now.timeIntervalSince(cpuWaits?.at ?? .distantPast) >= 0.25
    }

    /// One look at the child: what to do about it now.
    mutating func tick(_ look: Observation) -> Decision {
        // Time the child waited for a CPU does not count as time without progress.
        let waited = creditForCPUWait(look)
        let silent = stall.stalled(
            signature: look.heartbeat?.progress, now: look.now, waitedForCPU: waited,
            storyWait: look.heartbeat?.storyWait)
        // Before its first progress line, a lab child is still starting: a longer allowance.
        let starting = !stall.sawProgress && startupTimeout != nil
        let stalled = starting ? stall.watched > startupTimeout ?? 0 : silent
        let latest = look.heartbeat?.iteration
        if iteration.stalled(signature: latest, now: look.now, waitedForCPU: waited) {
            stallReason =
                "iteration \(latest ?? "?") went on for \(Int(iterationTimeout)) s without ending: the story never finished"
        }
        if crashSeenAt == nil, look.sawCrashMarker { crashSeenAt = look.now }
        // Output past its limit would only be read and dropped, at the cost of the CPU other
        // runs need; memory at its limit would make the child crawl. Either ends the run at
        // once, and says why (known now, not waited for).
        if look.outputCut && endsOnOutputFlood { return .kill(.outputFlood) }
        if look.memoryFull { return .kill(.memoryFull) }
        if let crashSeenAt, look.now.timeIntervalSince(crashSeenAt) > crashGrace { return .kill(.crashedWithoutDying) }
        if stallReason != nil { return .kill(.stalled) }
        if stalled { return .kill(starting ? .neverStarted : .stalled) }
        return .keepWaiting
    }

    /// Seconds the child waited for a CPU since the last reading, taken from this look's
    /// `threadWaits`; a child that has just shown progress starts its readings anew.
    private mutating func creditForCPUWait(_ look: Observation) -> Double {
        guard max(stall.watched, iteration.watched) >= 0.25 else {
            cpuWaits = nil
            return 0
        }
        guard look.now.timeIntervalSince(cpuWaits?.at ?? .distantPast) >= 0.25, let threads = look.threadWaits else {
            return 0
        }
        let waited = cpuWaits.map { CPUWait.longestWait(from: $0.threads, to: threads) } ?? 0
        cpuWaits = (look.now, threads)
        return waited
    }
}
