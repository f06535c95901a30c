import Foundation

/// Where one of the kernel's controllers (`pids`, `memory`) is mounted for this process: a
/// cgroup v1 hierarchy of its own (older distributions, this project's CI machine) or cgroup
/// v2's unified hierarchy (current distributions, GitHub's runners, Docker on them); a machine
/// may have one controller in each. It names the files a limit, a count or an event lives in,
/// which differ between the two.
struct ControlGroupHierarchy: Equatable, Sendable {
    enum Version: Equatable, Sendable { case v1, v2 }
    let version: Version
    /// This process's group in the hierarchy.
    let ownGroup: URL

    /// The hierarchy `controller` is found in, from /proc/self/mountinfo and /proc/self/cgroup;
    /// `v2Controllers` reads a v2 group's `cgroup.controllers` (what the group may hand down).
    static func find(
        _ controller: String, mountinfo: String, cgroup: String, v2Controllers: (URL) -> String? = readText
    ) -> ControlGroupHierarchy? {
        // A controller in use by a v1 hierarchy is absent from v2, so v1 is looked for first.
        if let mount = mountPoint(of: "cgroup", with: controller, in: mountinfo),
            let path = groupPath(in: cgroup, where: { $0.split(separator: ",").contains(Substring(controller)) })
        {
            return ControlGroupHierarchy(version: .v1, ownGroup: folder(mount, path))
        }
        guard let mount = mountPoint(of: "cgroup2", with: nil, in: mountinfo),
            let path = groupPath(in: cgroup, where: \.isEmpty)
        else { return nil }
        let own = folder(mount, path)
        guard let offered = v2Controllers(own.appendingPathComponent("cgroup.controllers")),
            offered.split(whereSeparator: \.isWhitespace).contains(Substring(controller))
        else { return nil }
        return ControlGroupHierarchy(version: .v2, ownGroup: own)
    }

    /// This process's hierarchy for `controller`, if the kernel has one mounted.
    static func here(_ controller: String) -> ControlGroupHierarchy? {
        guard let mountinfo = readText(URL(fileURLWithPath: "/proc/self/mountinfo")),
            let cgroup = readText(URL(fileURLWithPath: "/proc/self/cgroup"))
        else { return nil }
        return find(controller, mountinfo: mountinfo, cgroup: cgroup)
    }

    /// Where cgroup v2's unified hierarchy is mounted, if it is.
    static func v2MountPoint() -> URL? {
        readText(URL(fileURLWithPath: "/proc/self/mountinfo")).flatMap { mountPoint(of: "cgroup2", with: nil, in: $0) }
            .map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    // The files, by version.
    var memoryLimitFile: String { version == .v1 ? "memory.limit_in_bytes" : "memory.max" }
    var memoryUsageFile: String { version == .v1 ? "memory.usage_in_bytes" : "memory.current" }

    /// Whether `group`'s memory ever reached its limit (v1: failcnt; v2: the `max` event).
    func memoryLimitHits(in group: URL) -> Int {
        version == .v1
            ? Self.number(group.appendingPathComponent("memory.failcnt")) ?? 0
            : Self.event("max", in: group.appendingPathComponent("memory.events")) ?? 0
    }

    /// The most memory `group` has used (v2 kernels before 5.19 have no `memory.peak`: its use
    /// now).
    func memoryPeak(in group: URL) -> Int? {
        version == .v1
            ? Self.number(group.appendingPathComponent("memory.max_usage_in_bytes"))
            : Self.number(group.appendingPathComponent("memory.peak"))
                ?? Self.number(group.appendingPathComponent("memory.current"))
    }

    /// How many times the kernel's out-of-memory killer acted in `group`.
    func oomKills(in group: URL) -> Int {
        Self.event(
            "oom_kill",
            in: group.appendingPathComponent(version == .v1 ? "memory.oom_control" : "memory.events")) ?? 0
    }

    /// The limit files for a child's memory: swap counts too, so a child cannot push its memory
    /// out to swap and go on; under v2, the out-of-memory killer takes the whole child at once.
    func memoryLimitWrites(_ bytes: Int) -> [(file: String, value: String, required: Bool)] {
        version == .v1
            ? [("memory.limit_in_bytes", String(bytes), true), ("memory.memsw.limit_in_bytes", String(bytes), false)]
            : [("memory.max", String(bytes), true), ("memory.swap.max", "0", false), ("memory.oom.group", "1", false)]
    }

    // MARK: reading the kernel's files

    static func readText(_ file: URL) -> String? { try? String(contentsOfFile: file.path, encoding: .utf8) }

    /// A number file's value; "max" (v2's and v1 pids' "no limit") is `Int.max`.
    static func number(_ file: URL) -> Int? {
        guard let text = readText(file)?.trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
        return text == "max" ? .max : Int(text)
    }

    /// An event's count in a flat keyed file ("max 3\noom_kill 0").
    static func event(_ key: String, in file: URL) -> Int? {
        guard let text = readText(file) else { return nil }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == key { return Int(fields[1]) }
        }
        return nil
    }

    static func write(_ text: String, to file: URL) throws {
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(text.utf8))
    }

    // MARK: parsing

    /// mountinfo: "36 25 0:31 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids".
    private static func mountPoint(of type: String, with controller: String?, in mountinfo: String) -> String? {
        for line in mountinfo.split(separator: "\n") {
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2 else { continue }
            let head = halves[0].split(separator: " ")
            let tail = halves[1].split(separator: " ")
            guard head.count >= 5, tail.count >= 3, tail[0] == type else { continue }
            if let controller, !tail[2].split(separator: ",").contains(Substring(controller)) { continue }
            return String(head[4])
        }
        return nil
    }

    /// /proc/self/cgroup: "8:pids:/some/path" (v1), "0::/some/path" (v2).
    private static func groupPath(in cgroup: String, where controllers: (Substring) -> Bool) -> String? {
        for line in cgroup.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            if fields.count == 3, controllers(fields[1]) { return String(fields[2]) }
        }
        return nil
    }

    private static func folder(_ mount: String, _ path: String) -> URL {
        URL(fileURLWithPath: mount + (path == "/" ? "" : path), isDirectory: true)
    }
}
