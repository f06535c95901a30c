import CRaceLabSupport
import Foundation

/// What the parent itself measures of a child's time (`RunProfile` adds what the child measured):
/// when it was started, first showed a sign of life and was reaped, on the monotonic clock the
/// child shares, and the CPU time it used.
public struct ChildClock: Sendable, Equatable {
    /// Nanoseconds of the monotonic clock (`rl_monotonic_ns`, in the child too: no time namespace).
    public var spawnedAtNanoseconds: Int64 = 0
    public var firstHeartbeatAtNanoseconds: Int64?
    public var reapedAtNanoseconds: Int64?
    /// User and system time of the child and of every descendant it waited for (the sandbox's
    /// `unshare` waits for the lab's process), and of any left over that were reaped here; nil
    /// when none was reaped here.
    public var cpuSeconds: Double?

    public init() {}

    /// The child was reaped now, having used `usage`.
    mutating func reaped(_ usage: rusage) {
        reapedAtNanoseconds = rl_monotonic_ns()
        add(usage)
    }

    /// Another process of the child's, reaped here, used `usage`.
    mutating func add(_ usage: rusage) {
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        cpuSeconds = (cpuSeconds ?? 0) + seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
