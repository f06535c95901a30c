import Foundation

/// What each thread of a process is doing at one moment, as the kernel shows it (Linux: each
/// thread's state and, for one that waits, the kernel function it waits in). Taken as the
/// watchdog kills a hung child, it says whether the main thread was stuck in a wait (a lock, a
/// queue) or still running, which the checkpoints cannot: the main thread passes none of them
/// in the lab's own code. Elsewhere, nil.
public enum ThreadStates {
    /// The lab's own process among `pid` and the processes it started (the child may be a
    /// sandbox's launcher that waits for it): the one with the most threads, described.
    public static func describe(child pid: pid_t, descendants: [pid_t]) -> String? {
        let lab = ([pid] + descendants).max { threadCount($0) < threadCount($1) } ?? pid
        return describe(pid: lab)
    }

    static func threadCount(_ pid: pid_t) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.count ?? 0
    }

    /// "main thread in futex_do_wait; 5 other threads: 1 running, 4 in futex_do_wait"; nil when
    /// the kernel does not say (not Linux, or the process is gone).
    public static func describe(pid: pid_t) -> String? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var main: String?
        var others: [String: Int] = [:]
        for task in tasks {
            guard let stat = ProcessTree.readFile("/proc/\(pid)/task/\(task)/stat") else { continue }
            let wchan = ProcessTree.readFile("/proc/\(pid)/task/\(task)/wchan", limit: 128)
            let doing = activity(stat: stat, wchan: wchan)
            if task == String(pid) { main = doing } else { others[doing, default: 0] += 1 }
        }
        guard let main else { return nil }
        let count = others.values.reduce(0, +)
        guard count > 0 else { return "main thread \(main); no other thread" }
        let listed = others.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.value) \($0.key)" }
        return "main thread \(main); \(count) other thread\(count == 1 ? "" : "s"): " + listed.joined(separator: ", ")
    }

    /// "running", "in futex_do_wait" (waiting in that kernel function), "waiting", or the
    /// kernel's state letter ("stopped (T)").
    static func activity(stat: String, wchan: String?) -> String {
        guard let close = stat.lastIndex(of: ")"),
            let state = stat[stat.index(after: close)...].split(separator: " ").first
        else { return "unknown" }
        switch state {
        case "R": return "running"
        case "S", "D":
            // The compiler's suffixes (".constprop.0", ".isra.0") say nothing to a reader.
            let function = wchan?.trimmingCharacters(in: .whitespacesAndNewlines).prefix { $0 != "." } ?? ""
            return function.isEmpty || function == "0" ? "waiting" : "in \(function)"
        case "T", "t": return "stopped"
        case "Z", "X": return "exited"
        default: return "state \(state)"
        }
    }
}
