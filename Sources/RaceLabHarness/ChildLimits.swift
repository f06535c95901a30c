import Foundation

/// The kernel's limits on each lab child, where the machine lets the harness set them (Linux
/// with cgroup v1's `pids` and `memory` hierarchies, written by root: what a grader has): a
/// control group of its own per child, capping its tasks and its memory, inside one group for
/// all of this harness's children, inside the harness's own groups (so a container's limits
/// still hold). Whatever a child's code does, it cannot take the process ids or the memory
/// that other students' runs, their builds and the grader need:
/// - at most `tasksPerChild` tasks (RaceLab's own count ends a lab child at 257 live threads;
///   this is the kernel's backstop, for threads started some other way);
/// - at most `memoryPerChild` bytes (a child measured 90-130 MiB on every lab, the parent
///   included); past it, the kernel ends the child, and its verdict says why;
/// - no more children at once than the room there is (`slots`): the tasks and memory the
///   harness's groups may still use, less what builds and the grader keep, shared out so that
///   children at their limits together still fit.
/// Elsewhere (no such hierarchies, not root, cgroup v2 only) no limit is set, and
/// `racelab policy --isolation` says so.
public final class ChildLimits: Sendable {
    public static let tasksPerChild = 320
    public static let memoryPerChild = 1 << 30
    /// Kept for builds of student code and for the grader itself, outside every child's group.
    static let tasksKept = 250
    static let memoryKept = 2 << 30

    /// The group of every child of this harness, per hierarchy (pids, memory).
    let pidsFolder: URL
    let memoryFolder: URL
    /// How many children fit at once, at their limits.
    public let slots: Int
    /// The room measured (for `racelab policy --isolation`).
    public let tasksRoom: Int
    public let memoryRoom: Int
    private let counter = Counter()
    private let free: DispatchSemaphore

    /// This harness's limits, made once (nil where they cannot be set).
    public static let here: ChildLimits? = {
        #if os(Linux) && !RACELAB_NO_LINUX_FACILITIES
            make()
        #else
            nil
        #endif
    }()

    /// Why `here` is nil, in words.
    public static var missingReason: String {
        #if os(Linux) && !RACELAB_NO_LINUX_FACILITIES
            geteuid() != 0
                ? "not run as root (a grader's limits need root)"
                : "no cgroup v1 pids and memory hierarchies here, or they could not be written"
        #else
            "this system has no control groups"
        #endif
    }

    private init(pids: URL, memory: URL, tasksRoom: Int, memoryRoom: Int) {
        pidsFolder = pids
        memoryFolder = memory
        self.tasksRoom = tasksRoom
        self.memoryRoom = memoryRoom
        slots = max(1, min(64, tasksRoom / Self.tasksPerChild, memoryRoom / Self.memoryPerChild))
        free = DispatchSemaphore(value: slots)
    }

    static func make() -> ChildLimits? {
        guard geteuid() == 0, let pids = ownGroup("pids"), let memory = ownGroup("memory") else { return nil }
        let name = "racelab-\(getpid())"
        removeLeftovers(in: [pids, memory])
        let pidsFolder = pids.appendingPathComponent(name)
        let memoryFolder = memory.appendingPathComponent(name)
        let tasksRoom = roomForTasks(from: pids) - tasksKept
        let memoryRoom = roomForMemory(from: memory) - memoryKept
        guard tasksRoom >= tasksPerChild, memoryRoom >= memoryPerChild else { return nil }
        let limits = ChildLimits(pids: pidsFolder, memory: memoryFolder, tasksRoom: tasksRoom, memoryRoom: memoryRoom)
        do {
            for folder in [pidsFolder, memoryFolder] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            }
            try write(String(limits.slots * tasksPerChild), to: pidsFolder.appendingPathComponent("pids.max"))
            try write(
                String(limits.slots * memoryPerChild), to: memoryFolder.appendingPathComponent("memory.limit_in_bytes"))
        } catch {
            limits.removeFolders()
            return nil
        }
        atexit { ChildLimits.here?.removeFolders() }
        return limits
    }

    /// A group for one child, with its limits written; nil if the kernel refused one.
    public func group() -> ChildGroup? {
        let name = "c\(counter.next())"
        let folders = [pidsFolder.appendingPathComponent(name), memoryFolder.appendingPathComponent(name)]
        do {
            for folder in folders {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            }
            try Self.write(String(Self.tasksPerChild), to: folders[0].appendingPathComponent("pids.max"))
            try Self.write(String(Self.memoryPerChild), to: folders[1].appendingPathComponent("memory.limit_in_bytes"))
            // Swap counts too: a child cannot push its memory out to swap and go on.
            try? Self.write(
                String(Self.memoryPerChild), to: folders[1].appendingPathComponent("memory.memsw.limit_in_bytes"))
        } catch {
            for folder in folders { rmdir(folder.path) }
            return nil
        }
        return ChildGroup(pids: folders[0], memory: folders[1], limits: self)
    }

    /// A child's place among the `slots`: taken before it starts, given back once it is gone.
    func takeSlot() { free.wait() }
    func giveBackSlot() { free.signal() }

    private func removeFolders() {
        for folder in [pidsFolder, memoryFolder] { rmdir(folder.path) }
    }

    /// The folder of this process's group in a v1 hierarchy (`pids`, `memory`), if mounted.
    static func ownGroup(_ controller: String) -> URL? {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8),
            let groups = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)
        else { return nil }
        // mountinfo: "... MOUNTPOINT OPTIONS ... - cgroup cgroup rw,pids"
        let mount = mounts.split(separator: "\n").lazy.compactMap { line -> String? in
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2 else { return nil }
            let tail = halves[1].split(separator: " ")
            let head = halves[0].split(separator: " ")
            guard tail.count >= 3, tail[0] == "cgroup", head.count >= 5,
                tail[2].split(separator: ",").contains(Substring(controller))
            else { return nil }
            return String(head[4])
        }.first
        // cgroup: "8:pids:/some/path"
        let path = groups.split(separator: "\n").lazy.compactMap { line -> String? in
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[1].split(separator: ",").contains(Substring(controller)) else { return nil }
            return String(fields[2])
        }.first
        guard let mount, let path else { return nil }
        let folder = URL(fileURLWithPath: mount + (path == "/" ? "" : path), isDirectory: true)
        return access(folder.path, W_OK) == 0 ? folder : nil
    }

    /// Tasks this process's groups and the kernel still allow: the least room of every group
    /// from its own up, and of the kernel's own limits.
    static func roomForTasks(from folder: URL) -> Int {
        var room =
            min(number("/proc/sys/kernel/threads-max") ?? .max, number("/proc/sys/kernel/pid_max") ?? .max)
            - tasksOnTheMachine()
        var current = folder
        while let max = number(current.appendingPathComponent("pids.max").path) ?? unlimited(current, "pids.max") {
            room = min(room, max - (number(current.appendingPathComponent("pids.current").path) ?? 0))
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { break }
            current = parent
        }
        return room
    }

    /// Memory this process's groups and the machine still allow.
    static func roomForMemory(from folder: URL) -> Int {
        var room = (meminfo("MemAvailable") ?? 0)
        var current = folder
        while let limit = number(current.appendingPathComponent("memory.limit_in_bytes").path) {
            room = min(room, limit - (number(current.appendingPathComponent("memory.usage_in_bytes").path) ?? 0))
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { break }
            current = parent
        }
        return room
    }

    private static func unlimited(_ folder: URL, _ file: String) -> Int? {
        (try? String(contentsOfFile: folder.appendingPathComponent(file).path, encoding: .utf8))?
            .hasPrefix("max") == true ? .max : nil
    }

    private static func tasksOnTheMachine() -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return 0 }
        // "0.10 0.20 0.30 2/512 1234": running/all tasks
        let fields = stat.split(separator: " ")
        guard fields.count >= 4, let all = fields[3].split(separator: "/").last.flatMap({ Int($0) }) else { return 0 }
        return all
    }

    private static func meminfo(_ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    static func number(_ path: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func write(_ text: String, to file: URL) throws {
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// Groups of harnesses that ended without removing theirs (killed): empty ones go.
    private static func removeLeftovers(in folders: [URL]) {
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names where name.hasPrefix("racelab-") {
                guard let pid = Int32(name.dropFirst("racelab-".count)), kill(pid, 0) != 0 else { continue }
                let group = folder.appendingPathComponent(name)
                for child in (try? FileManager.default.contentsOfDirectory(atPath: group.path)) ?? []
                where child.hasPrefix("c") {
                    rmdir(group.appendingPathComponent(child).path)
                }
                rmdir(group.path)
            }
        }
    }
}

/// One child's control groups: the sandbox's first process joins them before anything of the
/// child's runs (`joinCommand`), so all it starts is counted there; read once it is gone.
public struct ChildGroup: Sendable {
    let pids: URL
    let memory: URL
    let limits: ChildLimits

    /// What the sandbox says (on stderr, exit status 125) when it could not join the groups.
    static let joinFailed = "racelab: the run could not join its control groups"

    /// Shell words that move the shell running them into both groups (or fail).
    var joinCommand: String {
        "echo $$ > \(pids.path)/cgroup.procs && echo $$ > \(memory.path)/cgroup.procs"
    }

    /// Whether the child's memory reached its limit (asked while it runs: one small read).
    var memoryLimitReached: Bool {
        (ChildLimits.number(memory.appendingPathComponent("memory.failcnt").path) ?? 0) > 0
    }

    /// The limit the child ran into, in a learner's words; nil if none.
    func limitReached() -> String? {
        let oom =
            (try? String(contentsOfFile: memory.appendingPathComponent("memory.oom_control").path, encoding: .utf8))
            .flatMap { text in
                text.split(separator: "\n").first { $0.hasPrefix("oom_kill ") }.flatMap {
                    Int($0.split(separator: " ")[1])
                }
            } ?? 0
        // At its limit the kernel first takes back what it can (the program's own pages too), so
        // the child may crawl until the watchdog ends it rather than be killed: reaching the
        // limit at all (failcnt) is the reason either way.
        if oom > 0 || memoryLimitReached {
            return
                "it used more than \(ChildLimits.memoryPerChild >> 20) MiB of memory, the limit for one run (no fix needs that much)"
                + (oom > 0 ? ": the kernel ended it" : "")
        }
        let events =
            (try? String(contentsOfFile: pids.appendingPathComponent("pids.events").path, encoding: .utf8)) ?? ""
        if let hits = events.split(separator: "\n").first(where: { $0.hasPrefix("max ") }).flatMap({
            Int($0.split(separator: " ")[1])
        }),
            hits > 0
        {
            return
                "it tried to have more than \(ChildLimits.tasksPerChild) threads and processes at once, the limit the kernel holds one run to (no fix needs that many)"
        }
        return nil
    }

    /// The groups go once every task in them has (they are empty when the child was reaped,
    /// but the kernel may take a moment to say so).
    func remove() {
        for folder in [pids, memory] {
            for _ in 0..<50 where rmdir(folder.path) != 0 && errno == EBUSY { usleep(2_000) }
        }
    }
}
