import Foundation

/// How often the OS switched a thread of this process in (Linux: /proc/self/task/N/status). A
/// thread that waits with nothing to wake it is not switched in at all; one that naps in a loop
/// (a timed wait, a sleep, a run loop with no source) is, every time it wakes to look. This sees
/// wake-ups in code the harness has no checkpoint in: the student's own wait loop.
@_spi(LabAuthoring) public enum ThreadWakeUps {
    /// Voluntary and involuntary context switches of thread `threadID` so far; nil where /proc
    /// cannot tell (another OS, or the thread is gone).
    public static func count(thread threadID: Int64) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/task/\(threadID)/status", encoding: .utf8) else { return nil }
        let switches = status.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") else { return nil }
            return Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "")
        }
        return switches.count == 2 ? switches.reduce(0, +) : nil
    }
}
