import Foundation

/// The processes of this machine as /proc shows them (Linux): how the harness finds everything
/// a child started, so that no descendant outlives its run, even one that left the child's
/// process group or session. Elsewhere it sees nothing, and only the process group is killed.
public enum ProcessTree {
    public struct Entry: Hashable, Sendable {
        public let pid: pid_t
        public let parent: pid_t
        public let group: pid_t
        public let session: pid_t
        /// Clock ticks after boot: with the pid, names one process even after the pid is reused.
        public let startTime: UInt64
        /// The program's name as the kernel keeps it (at most 15 characters).
        public let command: String
    }

    /// Every process now.
    public static func snapshot() -> [Entry] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return names.compactMap { name in
            guard let pid = pid_t(name) else { return nil }
            return entry(pid)
        }
    }

    /// Every process, as one snapshot at most `maxAge` seconds old shared by every caller: each
    /// child's watcher reading all of /proc four times a second, eight children at once, cost
    /// the parent a tenth of the machine. (For remembering what children start; a kill looks anew.)
    public static func recentSnapshot(maxAge: Double = 0.2) -> [Entry] {
        recent.lock.withLock {
            let now = Date()
            if let taken = recent.taken, now.timeIntervalSince(taken) < maxAge { return recent.entries }
            recent.entries = snapshot()
            recent.taken = Date()
            return recent.entries
        }
    }

    /// The shared snapshot (NSLock: on Linux TSan does not see Mutex).
    private final class Recent: @unchecked Sendable {
        let lock = NSLock()
        var taken: Date?
        var entries: [Entry] = []
    }
    private static let recent = Recent()

    /// One process, or nil when it is gone.
    public static func entry(_ pid: pid_t) -> Entry? {
        guard let text = readFile("/proc/\(pid)/stat") else { return nil }
        return parse(stat: text)
    }

    /// A small /proc file. (Its size shows as 0, so it is read until the end, not by size.)
    public static func readFile(_ path: String, limit: Int = 8192) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, limit - count) }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            count += got
        }
        return String(decoding: bytes[0..<count], as: UTF8.self)
    }

    /// `/proc/PID/stat`: "pid (command) state ppid pgrp session ... starttime ...". The command
    /// may hold spaces and parentheses, so fields are counted after the last ')'.
    static func parse(stat: String) -> Entry? {
        guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"), open < close,
            let pid = pid_t(stat.prefix { $0 != " " })
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is the state; ppid, pgrp, session follow; starttime is field 22 of the line.
        guard fields.count > 19, let parent = pid_t(fields[1]), let group = pid_t(fields[2]),
            let session = pid_t(fields[3]),
            let start = UInt64(fields[19])
        else { return nil }
        return Entry(
            pid: pid, parent: parent, group: group, session: session, startTime: start,
            command: String(stat[stat.index(after: open)..<close]))
    }

    /// Everything below `root` in `processes` (children, their children, ...), plus every
    /// member of `root`'s session (a grandchild whose parent already exited).
    public static func descendants(of root: pid_t, in processes: [Entry]) -> [Entry] {
        var found: [Entry] = []
        var frontier: Set<pid_t> = [root]
        var seen: Set<pid_t> = [root]
        while !frontier.isEmpty {
            let next = processes.filter { frontier.contains($0.parent) && !seen.contains($0.pid) }
            found += next
            frontier = Set(next.map(\.pid))
            seen.formUnion(frontier)
        }
        for entry in processes where entry.session == root && !seen.contains(entry.pid) {
            found.append(entry)
            seen.insert(entry.pid)
        }
        return found
    }

    /// SIGKILL each of `processes` that is still the same process (same start time).
    public static func kill(_ processes: [Entry]) {
        for process in processes where entry(process.pid)?.startTime == process.startTime {
            sendSignal(process.pid, SIGKILL)
        }
    }
}
