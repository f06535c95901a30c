import Foundation
import Synchronization

/// The kernel's limits on each lab child, where the machine lets the harness set them (Linux
/// with the `pids` and `memory` controllers of cgroup v1 or v2, in groups this process may
/// write: root's, or delegated to it): a control group of its own per child, capping its tasks
/// and its memory, inside one group for all of this harness's children, inside the harness's
/// own groups (so a container's limits still hold). Whatever a child's code does, it cannot
/// take the process ids or the memory that other students' runs, their builds and the grader
/// need:
/// - at most `tasksPerChild` tasks (RaceLab's own count ends a lab child at 257 live threads;
///   this is the kernel's backstop, for threads started some other way);
/// - at most `memoryPerChild` bytes (a child measured 90-130 MiB on every lab, the parent
///   included); past it, the kernel ends the child, and its verdict says why;
/// - no more children at once than the room there is: a child starts only while the tasks and
///   memory the harness's groups may still use, less what builds and the grader keep, and less
///   what the running children of every harness here may still take, have room for one more at
///   its limits (`takeSlot`). So two graders side by side share the room, first come first
///   served, and neither holds room for children it is not running.
/// Elsewhere no limit is set, and `racelab policy --isolation` says why (`missingReason`).
public final class ChildLimits: Sendable {
    public static let tasksPerChild = 320
    public static let memoryPerChild = 1 << 30
    /// Kept for builds of student code and for the grader itself, outside every child's group.
    static let tasksKept = 250
    static let memoryKept = 2 << 30
    /// Room above the children's own limits in the group of them all (less where the room
    /// measured has less). A removed child's page cache stays charged to that group, and the
    /// pages the children's programs run from may be charged there too; with a limit of exactly
    /// `slots` children's, two children near theirs at once may put the group at its limit
    /// first. The kernel then takes back pages from under both, and neither group's own count
    /// says so (scripts/memory-groups-experiment.sh: 22,526 hits of the parent's limit). The
    /// room lets a child reach its own limit first while what others left can be taken back.
    static let memoryHeadroom = memoryPerChild / 2

    let pids: ControlGroupHierarchy
    let memory: ControlGroupHierarchy
    /// The group of every child of this harness, per controller (one folder when both are v2).
    let pidsFolder: URL
    let memoryFolder: URL
    /// How many children fit at once, at their limits.
    public let slots: Int
    /// The room measured (for `racelab policy --isolation`).
    public let tasksRoom: Int
    public let memoryRoom: Int
    private let counter = Counter()
    /// This harness's children admitted by `takeSlot` and not yet given back.
    private let admitted = Mutex(0)

    /// This harness's limits, made once (nil where they cannot be set).
    public static var here: ChildLimits? { made.limits }

    /// Why `here` is nil, in words.
    public static var missingReason: String { made.reason ?? "" }

    private static let made: (limits: ChildLimits?, reason: String?) = {
        #if os(Linux) && !RACELAB_NO_LINUX_FACILITIES
            make()
        #else
            (nil, "this system has no control groups")
        #endif
    }()

    private init(
        pids: ControlGroupHierarchy, memory: ControlGroupHierarchy, name: String, tasksRoom: Int, memoryRoom: Int
    ) {
        self.pids = pids
        self.memory = memory
        pidsFolder = pids.ownGroup.appendingPathComponent(name, isDirectory: true)
        memoryFolder = memory.ownGroup.appendingPathComponent(name, isDirectory: true)
        self.tasksRoom = tasksRoom
        self.memoryRoom = memoryRoom
        slots = max(
            1, min(64, tasksRoom / Self.tasksPerChild, (memoryRoom - Self.memoryHeadroom) / Self.memoryPerChild))
    }

    /// The memory limit of the group of all this harness's children: theirs, and the headroom
    /// the room measured has left.
    var folderMemoryLimit: Int {
        slots * Self.memoryPerChild + min(Self.memoryHeadroom, max(0, memoryRoom - slots * Self.memoryPerChild))
    }

    /// Within this of its limit, a child has reached it: it is ended for its memory then, and
    /// said to be, even when the kernel, busy taking pages back, has not refused it yet (a lab
    /// child measured 90-130 MiB, so no honest run comes near).
    static let memoryNearLimit = 64 << 20

    /// The harness's folders, each once (v2 holds both controllers in one).
    var folders: [URL] { pidsFolder == memoryFolder ? [pidsFolder] : [pidsFolder, memoryFolder] }

    static func make() -> (ChildLimits?, String?) {
        guard let pids = ControlGroupHierarchy.here("pids"), let memory = ControlGroupHierarchy.here("memory") else {
            return (nil, "the kernel's pids and memory controllers are not both mounted here (cgroup v1 or v2)")
        }
        let owns = Array(Set([pids.ownGroup, memory.ownGroup]))
        guard owns.allSatisfy({ access($0.path, W_OK) == 0 }) else {
            return (
                nil,
                geteuid() == 0
                    ? "its control groups cannot be written here"
                    : "not run as root, and its control groups are not delegated to it"
            )
        }
        // Under v2 the harness's own group must hand its controllers down to its children.
        let onV2 = Dictionary(
            grouping: [("pids", pids), ("memory", memory)].filter { $0.1.version == .v2 }, by: { $0.1.ownGroup }
        ).mapValues { $0.map(\.0) }
        for (own, controllers) in onV2 {
            if let problem = handDown(controllers, from: own) { return (nil, problem) }
        }
        removeLeftovers(in: owns)
        let tasksRoom = roomForTasks(from: pids.ownGroup) - tasksKept
        let memoryRoom = roomForMemory(in: memory) - memoryKept

        guard tasksRoom >= tasksPerChild, memoryRoom >= memoryPerChild else {
            return (nil, "too little room left for one run at its limits (\(tasksPerChild) tasks, 1 GiB)")
        }
        let limits = ChildLimits(
            pids: pids, memory: memory, name: "racelab-\(getpid())", tasksRoom: tasksRoom, memoryRoom: memoryRoom)
        do {
            for folder in limits.folders {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            }
            try ControlGroupHierarchy.write(
                String(limits.slots * tasksPerChild), to: limits.pidsFolder.appendingPathComponent("pids.max"))
            try ControlGroupHierarchy.write(
                String(limits.folderMemoryLimit),
                to: limits.memoryFolder.appendingPathComponent(memory.memoryLimitFile))
            // ... and so must the group of all its children.
            let name = limits.pidsFolder.lastPathComponent
            for (own, controllers) in onV2 {
                if let problem = handDown(controllers, from: own.appendingPathComponent(name, isDirectory: true)) {
                    limits.removeFolders()
                    return (nil, problem)
                }
            }
        } catch {
            limits.removeFolders()
            return (nil, "the kernel refused the harness's control groups (\(error.localizedDescription))")
        }
        atexit { ChildLimits.here?.removeFolders() }
        return (limits, nil)
    }

    /// Under v2 a group's children get a controller only once the group hands it down
    /// (`cgroup.subtree_control`), and a group that does may hold no process itself (the
    /// machine's root group excepted). Where this process and its own children are alone in
    /// their group, they move into a leaf of their own first (as container runtimes do); with
    /// anyone else in it, nothing is moved and no limit is set. Nil when handed down.
    static func handDown(
        _ controllers: [String], from group: URL, isOurs: (Int32) -> Bool = ChildLimits.isThisProcessOrItsChild
    ) -> String? {
        let control = group.appendingPathComponent("cgroup.subtree_control")
        let enabled = (ControlGroupHierarchy.readText(control) ?? "").split(whereSeparator: \.isWhitespace)
        let missing = controllers.filter { !enabled.contains(Substring($0)) }
        guard !missing.isEmpty else { return nil }
        let words = missing.map { "+" + $0 }.joined(separator: " ")
        if (try? ControlGroupHierarchy.write(words, to: control)) != nil { return nil }
        let members = (ControlGroupHierarchy.readText(group.appendingPathComponent("cgroup.procs")) ?? "")
            .split(separator: "\n").compactMap { Int32($0) }
        guard !members.isEmpty, members.allSatisfy(isOurs) else {
            return
                "its cgroup v2 group holds other processes, so it cannot hand limits down to its children (start it alone in a group of its own, e.g. `systemd-run --scope -p Delegate=yes racelab ...`)"
        }
        let leaf = group.appendingPathComponent("racelab-grader-\(getpid())", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: leaf, withIntermediateDirectories: false)
            for member in members {
                try ControlGroupHierarchy.write(String(member), to: leaf.appendingPathComponent("cgroup.procs"))
            }
            try ControlGroupHierarchy.write(words, to: control)
            return nil
        } catch {
            return
                "the kernel refused to hand limits down to its children under cgroup v2 (\(error.localizedDescription))"
        }
    }

    static func isThisProcessOrItsChild(_ pid: Int32) -> Bool {
        pid == getpid()
            || ProcessTree.descendants(of: getpid(), in: ProcessTree.recentSnapshot()).contains { $0.pid == pid }
    }

    /// A child's use of more memory than one run may have, in a learner's words.
    static func memoryReason(endedBy ender: String?) -> String {
        "it used up the \(memoryPerChild >> 20) MiB of memory one run may have (no fix needs that much)"
            + (ender.map { ": \($0) ended it" } ?? "")
    }

    /// A group for one child: named now, made (with its limits) once the child is admitted
    /// (`takeSlot`), so the groups that exist are those of children admitted.
    public func group() -> ChildGroup {
        let name = "c\(counter.next())"
        return ChildGroup(
            pids: pidsFolder.appendingPathComponent(name, isDirectory: true),
            memory: memoryFolder.appendingPathComponent(name, isDirectory: true), memoryHierarchy: memory,
            limits: self)
    }

    /// Makes `group`'s folders and writes its limits; false if the kernel refused (the child then
    /// cannot join them, and is "could not judge").
    private func make(_ group: ChildGroup) -> Bool {
        do {
            for folder in group.folders {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            }
            try ControlGroupHierarchy.write(
                String(Self.tasksPerChild), to: group.pids.appendingPathComponent("pids.max"))
            for (file, value, required) in memory.memoryLimitWrites(Self.memoryPerChild) {
                do {
                    try ControlGroupHierarchy.write(value, to: group.memory.appendingPathComponent(file))
                } catch  where !required {}
            }
            return true
        } catch {
            for folder in group.folders { rmdir(folder.path) }
            return false
        }
    }

    /// A child's place, taken before it starts: it waits while this harness runs `slots`
    /// children, or while the room there is now has no place for one more at its limits
    /// (`fitsOneMore`), unless no child of any harness here runs at all (then the room is what it
    /// is, and waiting would not make more). Admitted, its group is made. Harnesses sharing a
    /// group decide one at a time (a lock on its folder), so two cannot both take the last room.
    func takeSlot(for group: ChildGroup) {
        while !admitted.withLock({ count in
            guard count < slots else { return false }
            let folder = open(pids.ownGroup.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if folder >= 0 { flock(folder, LOCK_EX) }
            defer { if folder >= 0 { close(folder) } }  // closing lets the lock go
            guard fitsOneMore() else { return false }
            _ = make(group)
            count += 1
            return true
        }) {
            usleep(50_000)
        }
    }

    /// Given back once the child is gone and its group removed.
    func giveBackSlot() { admitted.withLock { $0 -= 1 } }

    /// Whether one more child at its limits fits in the room left now: the machine's and the
    /// groups' own room (ChildLimits.roomFor...), less what builds and the grader keep, less
    /// what the children already admitted, of every harness here, may still take.
    func fitsOneMore() -> Bool {
        let reservedTasks = Self.reservedByChildren(
            harnessesIn: pids.ownGroup, limit: "pids.max", usage: "pids.current", perChild: Self.tasksPerChild)
        let reservedMemory = Self.reservedByChildren(
            harnessesIn: memory.ownGroup, limit: memory.memoryLimitFile, usage: memory.memoryUsageFile,
            perChild: Self.memoryPerChild)
        if reservedTasks == nil && reservedMemory == nil { return true }
        return Self.roomForTasks(from: pids.ownGroup) - Self.tasksKept - (reservedTasks ?? 0) >= Self.tasksPerChild
            && Self.roomForMemory(in: memory) - Self.memoryKept - (reservedMemory ?? 0) >= Self.memoryPerChild
    }

    /// What the children of every live harness in `folder` may still take: each one's limit less
    /// its use (their use is in the room already); nil when there is no child at all.
    static func reservedByChildren(harnessesIn folder: URL, limit: String, usage: String, perChild: Int) -> Int? {
        var reserved: Int?
        for harness in liveHarnessGroups(in: folder) {
            for child in childGroups(in: harness) {
                let max = ControlGroupHierarchy.number(child.appendingPathComponent(limit)) ?? perChild
                let used = ControlGroupHierarchy.number(child.appendingPathComponent(usage)) ?? 0
                reserved = (reserved ?? 0) + Swift.max(0, (max == .max ? perChild : max) - used)
            }
        }
        return reserved
    }

    /// The groups of live harnesses (this one included) in `folder`.
    static func liveHarnessGroups(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.compactMap { name in
            guard name.hasPrefix("racelab-"), let pid = Int32(name.dropFirst("racelab-".count)),
                pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
            else { return nil }
            return folder.appendingPathComponent(name, isDirectory: true)
        }
    }

    /// A harness's groups of one child each (`cN`).
    static func childGroups(in harness: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(atPath: harness.path)) ?? []).compactMap { name in
            name.hasPrefix("c") && Int(name.dropFirst()) != nil ? harness.appendingPathComponent(name) : nil
        }
    }

    private func removeFolders() {
        for folder in folders { rmdir(folder.path) }
    }

    /// Tasks this process's groups and the kernel still allow: the least room of every group
    /// from its own up, and of the kernel's own limits.
    static func roomForTasks(from folder: URL) -> Int {
        let kernel =
            [URL(fileURLWithPath: "/proc/sys/kernel/threads-max"), URL(fileURLWithPath: "/proc/sys/kernel/pid_max")]
            .compactMap(ControlGroupHierarchy.number).min() ?? .max
        return room(from: folder, limit: "pids.max", usage: "pids.current", start: kernel - tasksOnTheMachine())
    }

    /// Memory this process's groups and the machine still allow.
    static func roomForMemory(in hierarchy: ControlGroupHierarchy) -> Int {
        room(
            from: hierarchy.ownGroup, limit: hierarchy.memoryLimitFile, usage: hierarchy.memoryUsageFile,
            start: meminfo("MemAvailable") ?? 0)
    }

    /// The least of `start` and every group's limit less its usage, from `folder` up to the
    /// hierarchy's root (the first folder without the limit file).
    private static func room(from folder: URL, limit: String, usage: String, start: Int) -> Int {
        var room = start
        var current = folder
        while let max = ControlGroupHierarchy.number(current.appendingPathComponent(limit)) {
            if max != .max {
                room = min(room, max - (ControlGroupHierarchy.number(current.appendingPathComponent(usage)) ?? 0))
            }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { break }
            current = parent
        }
        return room
    }

    private static func tasksOnTheMachine() -> Int {
        guard let stat = ControlGroupHierarchy.readText(URL(fileURLWithPath: "/proc/loadavg")) else { return 0 }
        // "0.10 0.20 0.30 2/512 1234": running/all tasks
        let fields = stat.split(separator: " ")
        guard fields.count >= 4, let all = fields[3].split(separator: "/").last.flatMap({ Int($0) }) else { return 0 }
        return all
    }

    private static func meminfo(_ key: String) -> Int? {
        guard let text = ControlGroupHierarchy.readText(URL(fileURLWithPath: "/proc/meminfo")) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// Groups of harnesses that ended without removing theirs (killed), and the leaves v2
    /// graders moved into: empty ones go.
    private static func removeLeftovers(in folders: [URL]) {
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names {
                guard let prefix = ["racelab-grader-", "racelab-"].first(where: name.hasPrefix),
                    let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0
                else { continue }
                let group = folder.appendingPathComponent(name)
                for child in (try? FileManager.default.contentsOfDirectory(atPath: group.path)) ?? []
                where child.hasPrefix("c") && Int(child.dropFirst()) != nil {
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
    let memoryHierarchy: ControlGroupHierarchy
    let limits: ChildLimits

    /// Its folders, each once (v2 holds both controllers in one).
    var folders: [URL] { pids == memory ? [pids] : [pids, memory] }

    /// What the sandbox says (on stderr, exit status 125) when it could not join the groups.
    static let joinFailed = "racelab: the run could not join its control groups"

    /// Shell words that move the shell running them into its groups (or fail).
    var joinCommand: String {
        folders.map { "echo $$ > \($0.path)/cgroup.procs" }.joined(separator: " && ")
    }

    /// Whether the child's memory reached its limit, or came within `memoryNearLimit` of it
    /// (asked while it runs: two small reads).
    var memoryLimitReached: Bool {
        memoryHierarchy.memoryLimitHits(in: memory) > 0
            || (memoryHierarchy.memoryPeak(in: memory) ?? 0) >= ChildLimits.memoryPerChild - ChildLimits.memoryNearLimit
    }

    /// The limit the child ran into, in a learner's words; nil if none.
    func limitReached() -> String? {
        let oom = memoryHierarchy.oomKills(in: memory)
        // At its limit the kernel first takes back what it can (the program's own pages too), so
        // the child may crawl until the watchdog ends it rather than be killed: reaching the
        // limit at all is the reason either way.
        if oom > 0 || memoryLimitReached { return ChildLimits.memoryReason(endedBy: oom > 0 ? "the kernel" : nil) }
        if let hits = ControlGroupHierarchy.event("max", in: pids.appendingPathComponent("pids.events")), hits > 0 {
            return
                "it tried to have more than \(ChildLimits.tasksPerChild) threads and processes at once, the limit the kernel holds one run to (no fix needs that many)"
        }
        return nil
    }

    /// The groups go once every task in them has (they are empty when the child was reaped,
    /// but the kernel may take a moment to say so).
    func remove() {
        for folder in folders {
            for _ in 0..<50 where rmdir(folder.path) != 0 && errno == EBUSY { usleep(2_000) }
        }
    }
}
