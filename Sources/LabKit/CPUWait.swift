import Foundation

/// How long a process's threads waited for a CPU, from the kernel's scheduler statistics
/// (/proc/PID/task/TID/schedstat: time run, time waited on a run queue, time slices). A time
/// limit on a lab does not count time it spent waiting for a CPU: on a busy grader (other
/// classes, `--jobs` children on few cores) a lab that is starved is not stuck, while one that
/// had the CPU it wanted (a deadlock wants none; a spin gets its share) and did not finish is.
package enum CPUWait {
    /// Seconds the threads of process `pid` have waited, all added up, or nil where the kernel
    /// does not say (no /proc, schedstats off): a time limit then counts plain time.
    package static func seconds(of pid: pid_t) -> Double? {
        guard let waits = threadWaits(of: pid) else { return nil }
        return Double(waits.values.reduce(0, +)) / 1e9
    }

    /// Nanoseconds each thread of process `pid` has waited for a CPU since it began, by thread
    /// id, or nil where the kernel does not say.
    package static func threadWaits(of pid: pid_t) -> [String: UInt64]? {
        #if os(Linux)
            let folder = "/proc/\(pid)/task"
            guard let threads = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
            var waits: [String: UInt64] = [:]
            for thread in threads {
                guard let text = try? String(contentsOfFile: "\(folder)/\(thread)/schedstat", encoding: .utf8),
                    let waited = waitedNanoseconds(schedstat: text)
                else { continue }
                waits[thread] = waited
            }
            return waits.isEmpty ? nil : waits
        #else
            return nil
        #endif
    }

    /// The second field of a schedstat line ("254542 196150 1": 196150 ns waited).
    package static func waitedNanoseconds(schedstat: String) -> UInt64? {
        let fields = schedstat.split(separator: " ")
        return fields.count >= 2 ? UInt64(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) : nil
    }
}
