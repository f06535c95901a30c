import CompilerCheck
import Foundation
import XCTest

@testable import RaceLabHarness

/// The kernel's limits on a child (ChildLimits): a child in its group that starts more tasks
/// than a run may have is refused them and its outcome says so; one that takes more memory is
/// ended by the kernel, and its outcome says so. Where the limits cannot be set (not root, no
/// cgroup v1 hierarchies), the tests skip saying why.
final class ChildLimitsTests: XCTestCase {
    private func runInGroup(_ script: String) throws -> ChildOutcome {
        guard let limits = ChildLimits.here else {
            throw XCTSkip("no kernel limits here: \(ChildLimits.missingReason)")
        }
        let group = limits.group()
        let folder = try RunFolder.make()
        defer { folder.remove() }
        guard
            let (program, arguments) = ChildSandbox.wrap(
                URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script], folder: folder.url, group: group)
        else {
            group.remove()
            throw XCTSkip("no sandbox here: the groups are joined inside it")
        }
        var request = ChildRequest(executable: program, arguments: arguments, environment: [:], stallTimeout: 60)
        request.group = group
        return ChildRunner.run(request)
    }

    func testTooManyTasksAreRefusedAndSaid() throws {
        // 400 sleeping processes asked for; the group allows 320 tasks.
        let outcome = try runInGroup(
            "n=0; while [ $n -lt 400 ]; do sleep 3 & n=$((n + 1)); done 2>/dev/null; wait; true")
        XCTAssertEqual(
            outcome.limitReached,
            "it tried to have more than 320 threads and processes at once, the limit the kernel holds one run to (no fix needs that many)"
        )
    }

    func testTooMuchMemoryEndsTheChildAndIsSaid() throws {
        // `tail -c` keeps the last 1.5 GiB of a pipe in memory: past the 1 GiB a run may use.
        let outcome = try runInGroup("head -c 1500M /dev/zero | tail -c 1500M > /dev/null")
        XCTAssertTrue(
            outcome.limitReached?.hasPrefix(
                "it used up the 1024 MiB of memory one run may have (no fix needs that much)") == true,
            "\(outcome.limitReached ?? "no limit reached")")
    }

    /// Near its limit is at it: a child that took all but a few MiB of its memory is ended for it
    /// (the kernel, busy taking pages back, may not have refused it anything yet).
    func testAChildNearItsMemoryLimitHasReachedIt() throws {
        let outcome = try runInGroup("head -c 990M /dev/zero | tail -c 990M > /dev/null")
        XCTAssertTrue(
            outcome.limitReached?.hasPrefix("it used up the 1024 MiB of memory one run may have") == true,
            "\(outcome.limitReached ?? "no limit reached")")
    }

    func testAnOrdinaryChildReachesNoLimit() throws {
        let outcome = try runInGroup("n=0; while [ $n -lt 20 ]; do sleep 0.1 & n=$((n + 1)); done; wait")
        XCTAssertEqual(outcome.ending, .exited(0))
        XCTAssertNil(outcome.limitReached)
    }

    /// Only as many children at once as fit at their limits in the room the machine has.
    func testSlotsFitTheRoom() throws {
        guard let limits = ChildLimits.here else {
            throw XCTSkip("no kernel limits here: \(ChildLimits.missingReason)")
        }
        XCTAssertGreaterThanOrEqual(limits.slots, 1)
        XCTAssertLessThanOrEqual(
            limits.slots * ChildLimits.tasksPerChild, max(limits.tasksRoom, ChildLimits.tasksPerChild))
        XCTAssertLessThanOrEqual(
            limits.slots * ChildLimits.memoryPerChild, max(limits.memoryRoom, ChildLimits.memoryPerChild))
    }

    /// The group of all the children has room above their own limits: with every slot taken and
    /// each child at its limit, a child's own limit is reached before the group's, so it is the
    /// one ended, for its own reason.
    func testTheChildrensGroupBindsAfterTheirOwnLimits() throws {
        guard let limits = ChildLimits.here else {
            throw XCTSkip("no kernel limits here: \(ChildLimits.missingReason)")
        }
        let written = ControlGroupHierarchy.number(
            limits.memoryFolder.appendingPathComponent(limits.memory.memoryLimitFile))
        XCTAssertEqual(written, limits.folderMemoryLimit)
        let headroom = limits.folderMemoryLimit - limits.slots * ChildLimits.memoryPerChild
        XCTAssertEqual(
            headroom,
            min(ChildLimits.memoryHeadroom, max(0, limits.memoryRoom - limits.slots * ChildLimits.memoryPerChild)))
        // Where the room has it, the headroom is whole; the group never asks for more than the room.
        if limits.memoryRoom >= limits.slots * ChildLimits.memoryPerChild + ChildLimits.memoryHeadroom {
            XCTAssertEqual(headroom, ChildLimits.memoryHeadroom)
        }
        XCTAssertLessThanOrEqual(limits.folderMemoryLimit, max(limits.memoryRoom, ChildLimits.memoryPerChild))
    }

    /// Without control groups the same memory limit holds, by ThreadSanitizer's own count
    /// (`hard_rss_limit_mb` in every lab child's options): a program that really uses 1.5 GiB
    /// is ended, and its outcome gives the same reason.
    func testThreadSanitizerEndsAChildPastItsMemoryWithoutControlGroups() throws {
        let folder = try RunFolder.make()
        defer { folder.remove() }
        let source = folder.url.appendingPathComponent("hog.swift")
        try Data(
            """
            import Glibc
            var kept: [UnsafeMutableRawPointer] = []
            for _ in 0..<96 {
                let block = malloc(16 << 20)!
                memset(block, 1, 16 << 20)
                kept.append(block)
                usleep(5_000)
            }
            print("not ended")
            """.utf8
        ).write(to: source)
        let compiler: SwiftCompiler
        do { compiler = try SwiftCompiler.locate() } catch { throw XCTSkip("no swiftc here: \(error)") }
        let program = folder.url.appendingPathComponent("hog")
        let built = compiler.run(["-sanitize=thread", "-Onone", source.path, "-o", program.path])
        XCTAssertEqual(built.status, 0, built.output)
        // A lab child's options, but for the suppressions a lab child is handed on a descriptor.
        var environment = TSanEnvironment.childEnvironment(folder: folder)
        environment["TSAN_OPTIONS"] = TSanEnvironment.options(symbolizer: nil, suppressionsFile: nil)
        let outcome = ChildRunner.run(
            ChildRequest(executable: program, arguments: [], environment: environment, stallTimeout: 60))
        XCTAssertEqual(
            outcome.limitReached,
            "it used up the 1024 MiB of memory one run may have (no fix needs that much): ThreadSanitizer ended it"
        )
        XCTAssertFalse(
            outcome.otherOutput.contains("not ended"), "\(outcome.ending) \(outcome.stderr.prefix(600))")
    }
}

/// Two graders on one machine share the room: what the children another live harness has
/// admitted may still take (each one's limit less its use) is not room for this one's next
/// child; a harness that has ended holds nothing.
final class ChildLimitsNeighbourTests: XCTestCase {
    func testAnAdmittedChildOfAnotherHarnessHoldsItsRoom() throws {
        guard let limits = ChildLimits.here else {
            throw XCTSkip("no kernel limits here: \(ChildLimits.missingReason)")
        }
        // A folder of its own, so the harnesses of tests run beside this one are not counted.
        let folder = limits.pids.ownGroup.appendingPathComponent("racelab-neighbours-test-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { rmdir(folder.path) }
        func reserved() -> Int? {
            ChildLimits.reservedByChildren(harnessesIn: folder, limit: "pids.max", usage: "pids.current", perChild: 320)
        }
        XCTAssertNil(reserved(), "no harness, no child")
        // A live process stands in for the other harness and for its one child.
        let neighbour = Process()
        neighbour.executableURL = URL(fileURLWithPath: "/bin/sleep")
        neighbour.arguments = ["30"]
        try neighbour.run()
        let harness = folder.appendingPathComponent("racelab-\(neighbour.processIdentifier)")
        let child = harness.appendingPathComponent("c1")
        try FileManager.default.createDirectory(at: child, withIntermediateDirectories: true)
        defer {
            rmdir(child.path)
            rmdir(harness.path)
        }
        try ControlGroupHierarchy.write("320", to: child.appendingPathComponent("pids.max"))
        XCTAssertEqual(reserved(), 320, "admitted, not started yet: its whole limit")
        try ControlGroupHierarchy.write(
            String(neighbour.processIdentifier), to: child.appendingPathComponent("cgroup.procs"))
        XCTAssertEqual(reserved(), 319, "its limit less the one task it runs")
        neighbour.terminate()
        neighbour.waitUntilExit()
        XCTAssertNil(reserved(), "a harness that has ended holds nothing")
    }
}
