import CRaceLabSupport
import Foundation

/// How long a process's threads waited for a CPU, from the kernel's scheduler statistics
/// (/proc/PID/task/TID/schedstat: time run, time waited on a run queue, time slices). A time
/// limit on a lab does not count time it spent waiting for a CPU: on a busy grader (other
/// classes, `--jobs` children on few cores) a lab that is starved is not stuck, while one that
/// had the CPU it wanted (a deadlock wants none; a spin gets its share) and did not finish is.
package enum CPUWait {
    /// Nanoseconds each thread of process `pid` has waited for a CPU since it began, by thread
    /// id, or nil where the kernel does not say.
    package static func threadWaits(of pid: pid_t) -> [String: UInt64]? {
        #if os(Linux) && !RACELAB_NO_LINUX_FACILITIES
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

    /// `threadWaits` of this very process, read with raw system calls (ThreadFacts.c): safe on the
    /// story's thread while a lab thread is held inside a lock of Foundation's or the C library's.
    package static func ownThreadWaits() -> [String: UInt64]? {
        let capacity = 1024
        var tids = [Int64](repeating: 0, count: capacity)
        var waits = [Int64](repeating: 0, count: capacity)
        let count = rl_process_cpu_waits(&tids, &waits, Int32(capacity))
        guard count > 0 else { return nil }
        var byThread: [String: UInt64] = [:]
        for index in 0..<Int(count) { byThread[String(tids[index])] = UInt64(max(waits[index], 0)) }
        return byThread
    }

    /// The second field of a schedstat line ("254542 196150 1": 196150 ns waited).
    package static func waitedNanoseconds(schedstat: String) -> UInt64? {
        let fields = schedstat.split(separator: " ")
        return fields.count >= 2 ? UInt64(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) : nil
    }

    /// Seconds the most starved thread waited between two readings of `threadWaits`: threads
    /// wait side by side, so their sum would count one moment many times. A thread begun since
    /// has waited only since; a thread id reused by a new thread reads less.
    package static func longestWait(from before: [String: UInt64], to after: [String: UInt64]) -> Double {
        let longest = after.map { thread, waited in waited - min(waited, before[thread] ?? 0) }.max() ?? 0
        return Double(longest) / 1e9
    }
}
