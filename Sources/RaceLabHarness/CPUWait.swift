import Foundation

/// How long a child's threads waited for a CPU, from the kernel's scheduler statistics
/// (/proc/PID/task/TID/schedstat: time run, time waited on a run queue, time slices). The
/// watchdog does not count time the child spent waiting for a CPU: on a busy grader (other
/// classes, `--jobs` children on few cores) a child that is starved is not stuck, while one that
/// had the CPU it wanted (a deadlock wants none; a spin gets its share) and made no progress is.
public enum CPUWait {
    /// Seconds the threads of process `pid` have waited, all added up, or nil where the kernel
    /// does not say (no /proc, schedstats off): the watchdog then counts plain time.
    public static func seconds(of pid: pid_t) -> Double? {
        #if os(Linux)
            let folder = "/proc/\(pid)/task"
            guard let threads = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
            var total = 0.0
            var read = false
            for thread in threads {
                guard let text = try? String(contentsOfFile: "\(folder)/\(thread)/schedstat", encoding: .utf8),
                    let waited = waitedNanoseconds(schedstat: text)
                else { continue }
                total += Double(waited) / 1e9
                read = true
            }
            return read ? total : nil
        #else
            return nil
        #endif
    }

    /// The second field of a schedstat line ("254542 196150 1": 196150 ns waited).
    static func waitedNanoseconds(schedstat: String) -> UInt64? {
        let fields = schedstat.split(separator: " ")
        return fields.count >= 2 ? UInt64(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) : nil
    }
}
