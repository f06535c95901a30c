import Foundation

/// A time limit on the lab's own clock. Time the lab's threads spent waiting for a CPU (a busy
/// machine: other classes grading, `--jobs` children on few cores) moves the end on, by the most
/// any one of them waited; so a limit reached means the lab had the CPUs it wanted and still did
/// not finish (a spin, a poll for ever), never that the machine was busy. Where the kernel keeps
/// no scheduler statistics, plain time; and, unless asked (`ownTime`), for a window under half a
/// second (a moment a story times to the microsecond, not a cap on work).
@_spi(LabAuthoring) public struct LabDeadline {
    private var end: Double
    private let waitsAtStart: [String: UInt64]?
    private var movedOnBy = 0.0

    public init(seconds: Double, ownTime: Bool? = nil) {
        end = Self.now + max(seconds, 0)
        waitsAtStart = ownTime ?? (seconds >= 0.5) ? CPUWait.ownThreadWaits() : nil
    }

    private static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Whether the limit is reached. Asks the kernel only once the plain time is up.
    public mutating func hasPassed() -> Bool {
        let now = Self.now
        guard now >= end else { return false }
        guard let start = waitsAtStart, let waits = CPUWait.ownThreadWaits() else { return true }
        let longest = CPUWait.longestWait(from: start, to: waits)
        guard longest > movedOnBy else { return true }
        end += longest - movedOnBy
        movedOnBy = longest
        return now >= end
    }
}
