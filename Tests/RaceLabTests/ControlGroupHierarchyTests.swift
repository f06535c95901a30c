import Foundation
import XCTest

@testable import RaceLabHarness

/// Where the kernel's controllers are found (ControlGroupHierarchy), from the texts of the
/// three kinds of machine a grader meets: cgroup v1 only, v2 only (current distributions,
/// GitHub's runners) and a mix of both.
final class ControlGroupHierarchyTests: XCTestCase {
    private let v1Mounts = """
        31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
        35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
        39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
        41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
        """
    private let v1Groups = "8:pids:/\n4:memory:/process_api/abc\n0::/\n"

    private let v2Mounts = "29 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw,nsdelegate"
    private let v2Groups = "0::/system.slice/grader.service\n"

    func testV1HierarchiesAreFoundByTheirController() {
        let pids = ControlGroupHierarchy.find("pids", mountinfo: v1Mounts, cgroup: v1Groups) { _ in nil }
        let memory = ControlGroupHierarchy.find("memory", mountinfo: v1Mounts, cgroup: v1Groups) { _ in nil }
        XCTAssertEqual(
            pids,
            ControlGroupHierarchy(
                version: .v1, ownGroup: URL(fileURLWithPath: "/sys/fs/cgroup/pids", isDirectory: true)))
        XCTAssertEqual(
            memory,
            ControlGroupHierarchy(
                version: .v1, ownGroup: URL(fileURLWithPath: "/sys/fs/cgroup/memory/process_api/abc", isDirectory: true)
            ))
        XCTAssertEqual(memory?.memoryLimitFile, "memory.limit_in_bytes")
    }

    func testV2IsUsedForAControllerItsGroupIsOffered() {
        var asked: [String] = []
        let offered: (URL) -> String? = { file in
            asked.append(file.path)
            return "cpuset cpu io memory pids\n"
        }
        let memory = ControlGroupHierarchy.find("memory", mountinfo: v2Mounts, cgroup: v2Groups, v2Controllers: offered)
        XCTAssertEqual(
            memory,
            ControlGroupHierarchy(
                version: .v2,
                ownGroup: URL(fileURLWithPath: "/sys/fs/cgroup/system.slice/grader.service", isDirectory: true)))
        XCTAssertEqual(asked, ["/sys/fs/cgroup/system.slice/grader.service/cgroup.controllers"])
        XCTAssertEqual(memory?.memoryLimitFile, "memory.max")
        XCTAssertEqual(memory?.memoryUsageFile, "memory.current")
        XCTAssertEqual(
            memory?.memoryLimitWrites(1 << 30).map(\.file), ["memory.max", "memory.swap.max", "memory.oom.group"])
    }

    func testV2WithoutTheControllerOfferedIsNoPlaceForIt() {
        XCTAssertNil(
            ControlGroupHierarchy.find("pids", mountinfo: v2Mounts, cgroup: v2Groups) { _ in "cpu io memory\n" })
    }

    /// A machine with pids in v2 and memory in v1 (a hybrid layout): each where it is.
    func testAMixedMachineHasEachControllerWhereItIs() {
        let mounts = v1Mounts.split(separator: "\n").filter { !$0.contains("rw,pids") }.joined(separator: "\n")
        let groups = "4:memory:/\n0::/racelab-test\n"
        let pids = ControlGroupHierarchy.find("pids", mountinfo: mounts, cgroup: groups) { _ in "pids" }
        let memory = ControlGroupHierarchy.find("memory", mountinfo: mounts, cgroup: groups) { _ in "pids" }
        XCTAssertEqual(pids?.version, .v2)
        XCTAssertEqual(pids?.ownGroup.path, "/sys/fs/cgroup/unified/racelab-test")
        XCTAssertEqual(memory?.version, .v1)
    }

    func testNoControlGroupsMountedIsNoHierarchy() {
        XCTAssertNil(
            ControlGroupHierarchy.find(
                "pids", mountinfo: "22 1 0:21 / /proc rw - proc proc rw", cgroup: "0::/\n"
            ) { _ in "pids" })
    }

    /// The kernel's files: "max" is no limit, events are keyed lines.
    func testFilesAreReadAsTheKernelWritesThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cgroup-files-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "max\n".write(to: folder.appendingPathComponent("pids.max"), atomically: false, encoding: .utf8)
        try "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n".write(
            to: folder.appendingPathComponent("memory.events"), atomically: false, encoding: .utf8)
        XCTAssertEqual(ControlGroupHierarchy.number(folder.appendingPathComponent("pids.max")), .max)
        let v2 = ControlGroupHierarchy(version: .v2, ownGroup: folder)
        XCTAssertEqual(v2.memoryLimitHits(in: folder), 3)
        XCTAssertEqual(v2.oomKills(in: folder), 1)
        XCTAssertEqual(ControlGroupHierarchy(version: .v1, ownGroup: folder).memoryLimitHits(in: folder), 0)
    }
}

/// Under cgroup v2 a grader's group can hand controllers down to children only once no process
/// is left in it (ChildLimits.handDown): a grader alone in its group moves into a leaf of its
/// own, one sharing it with others moves nothing. Run for real in the machine's v2 hierarchy,
/// with whichever controller it offers (on a machine whose pids and memory are v1, that is what
/// is left to v2, such as hugetlb); skipped where there is no v2 hierarchy to write.
final class ControlGroupHandDownTests: XCTestCase {
    private var root: URL!
    private var home: URL!
    private var group: URL!
    private var controller: String!
    private var rootHandedDown = false

    override func setUpWithError() throws {
        guard geteuid() == 0, let mount = ControlGroupHierarchy.v2MountPoint(),
            access(mount.appendingPathComponent("cgroup.procs").path, W_OK) == 0,
            let own = ControlGroupHierarchy.readText(URL(fileURLWithPath: "/proc/self/cgroup"))?
                .split(separator: "\n").first(where: { $0.hasPrefix("0::") }).map({ String($0.dropFirst(3)) }),
            let offered = ControlGroupHierarchy.readText(mount.appendingPathComponent("cgroup.controllers"))?
                .split(whereSeparator: \.isWhitespace).first
        else { throw XCTSkip("no cgroup v2 hierarchy that root may write here") }
        root = mount
        home = mount.appendingPathComponent(own == "/" ? "" : String(own.dropFirst()), isDirectory: true)
        controller = String(offered)
        // The machine's root group hands the controller down to the test's group (the root may
        // hold processes and still do so).
        let rootControl = mount.appendingPathComponent("cgroup.subtree_control")
        if !(ControlGroupHierarchy.readText(rootControl) ?? "").contains(controller) {
            try ControlGroupHierarchy.write("+" + controller, to: rootControl)
            rootHandedDown = true
        }
        group = mount.appendingPathComponent("racelab-handdown-test-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: group, withIntermediateDirectories: false)
        try ControlGroupHierarchy.write(String(getpid()), to: group.appendingPathComponent("cgroup.procs"))
    }

    override func tearDown() {
        guard let group else { return }
        try? ControlGroupHierarchy.write(String(getpid()), to: home.appendingPathComponent("cgroup.procs"))
        try? ControlGroupHierarchy.write("-" + controller, to: group.appendingPathComponent("cgroup.subtree_control"))
        rmdir(group.appendingPathComponent("racelab-grader-\(getpid())").path)
        rmdir(group.path)
        if rootHandedDown {
            try? ControlGroupHierarchy.write(
                "-" + controller, to: root.appendingPathComponent("cgroup.subtree_control"))
        }
    }

    func testAGraderAloneInItsGroupMovesIntoALeafAndHandsDown() throws {
        XCTAssertNil(ChildLimits.handDown([controller], from: group))
        let ownNow = ControlGroupHierarchy.readText(URL(fileURLWithPath: "/proc/self/cgroup")) ?? ""
        XCTAssertTrue(
            ownNow.contains("0::/\(group.lastPathComponent)/racelab-grader-\(getpid())"), "in \(ownNow)")
        XCTAssertTrue(
            (ControlGroupHierarchy.readText(group.appendingPathComponent("cgroup.subtree_control")) ?? "")
                .contains(controller))
    }

    func testAGraderSharingItsGroupMovesNothingAndSaysWhy() throws {
        let problem = ChildLimits.handDown([controller], from: group, isOurs: { _ in false })
        XCTAssertEqual(
            problem,
            "its cgroup v2 group holds other processes, so it cannot hand limits down to its children (start it alone in a group of its own, e.g. `systemd-run --scope -p Delegate=yes racelab ...`)"
        )
        XCTAssertEqual(
            ControlGroupHierarchy.readText(group.appendingPathComponent("cgroup.procs"))?
                .trimmingCharacters(in: .whitespacesAndNewlines), String(getpid()))
    }
}
