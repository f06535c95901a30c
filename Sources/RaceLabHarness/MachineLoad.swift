import Foundation

/// How much of the machine a process can count on right now: the cores over the threads ready
/// to run (the kernel's count in /proc/loadavg), at most 1. The watchdog counts a child's time
/// without progress at that rate, so that a busy grader (other classes, `--jobs` children on
/// few cores) makes a hang verdict come later, never sooner: only a child that had its share of
/// the CPU and still made no progress is stuck.
public enum MachineLoad {
    /// 1 on a machine with a core for every ready thread; 0.25 with four ready threads a core.
    public static func cpuShare() -> Double {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return 1 }
            return share(loadavg: text, cores: ProcessInfo.processInfo.activeProcessorCount)
        #else
            return 1
        #endif
    }

    /// From /proc/loadavg's text ("0.52 0.58 0.59 3/812 12345": 3 ready of 812).
    static func share(loadavg: String, cores: Int) -> Double {
        let fields = loadavg.split(separator: " ")
        guard fields.count >= 4, let ready = fields[3].split(separator: "/").first.flatMap({ Int($0) }), ready > 0
        else { return 1 }
        return min(1, Double(max(cores, 1)) / Double(ready))
    }
}
