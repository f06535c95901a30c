import Foundation

/// A time limit on the lab's own clock. Time the lab's threads spent waiting for a CPU (a busy
/// machine: other classes grading, `--jobs` children on few cores) moves the end on, by the most
/// any one of them waited; so a limit reached means the lab had the CPUs it wanted and still did
/// not finish (a spin, a poll for ever), never that the machine was busy. Where the kernel keeps
/// no scheduler statistics, and for a window under half a second (a moment a story times, not a
/// cap on work), plain time.
struct LabDeadline {
    private var end: UInt64
    private let waitsAtStart: [String: UInt64]?
    private var movedOnBy: UInt64 = 0

    init(seconds: Double) {
        end = DispatchTime.now().uptimeNanoseconds + UInt64(max(seconds, 0) * 1e9)
        waitsAtStart = seconds < 0.5 ? nil : CPUWait.threadWaits(of: getpid())
    }

    /// Whether the limit is reached. Asks the kernel only once the plain time is up.
    mutating func hasPassed() -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now >= end else { return false }
        guard let start = waitsAtStart, let waits = CPUWait.threadWaits(of: getpid()) else { return true }
        // A thread begun since has waited only since; a thread id reused by a new thread reads less.
        let longest = waits.map { thread, waited in waited - min(waited, start[thread] ?? 0) }.max() ?? 0
        guard longest > movedOnBy else { return true }
        end += longest - movedOnBy
        movedOnBy = longest
        return now >= end
    }
}
