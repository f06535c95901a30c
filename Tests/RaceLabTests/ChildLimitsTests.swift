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
        let group = try XCTUnwrap(limits.group(), "the kernel refused a child's groups")
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
                "it used more than 1024 MiB of memory, the limit for one run (no fix needs that much)") == true,
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
}
