import Foundation
import Synchronization
import XCTest

/// A barrier given as a work item's flag (`DispatchWorkItem(flags: .barrier)`, or
/// `async(group:flags: .barrier)`) runs alone on its concurrent queue in a lab child, as it does
/// without the harness. (ThreadSanitizer's own interceptors pass every block on as a plain
/// function and lose the flag: a correct reader-writer fix written that way would race.)
final class BarrierWorkItemTests: XCTestCase {
    override func setUpWithError() throws {
        #if !os(Linux) || RACELAB_NO_LINUX_FACILITIES
            throw XCTSkip("the harness's interposers are on Linux, with ThreadSanitizer")
        #endif
    }

    func testAWorkItemBarrierRunsAlone() {
        XCTAssertEqual(
            overlaps { queue, work, _ in queue.async(execute: DispatchWorkItem(flags: .barrier, block: work)) }, 0)
    }

    func testAGroupBarrierRunsAloneAndLeavesItsGroup() {
        XCTAssertEqual(overlaps { queue, work, group in queue.async(group: group, flags: .barrier, execute: work) }, 0)
    }

    /// Blocks that take 2 ms each on a concurrent queue, one in four a barrier sent by `barrier`
    /// (which enters `group` or not): how many barriers found another block running.
    private func overlaps(
        _ barrier: (DispatchQueue, @escaping @Sendable () -> Void, DispatchGroup) -> Void
    ) -> Int {
        let queue = DispatchQueue(label: "lab.rw", attributes: .concurrent)
        let state = Mutex((running: 0, overlaps: 0))
        let group = DispatchGroup()
        for index in 0..<24 {
            if index % 4 == 3 {
                barrier(
                    queue,
                    {
                        state.withLock {
                            if $0.running > 0 { $0.overlaps += 1 }
                            $0.running += 1
                        }
                        usleep(2000)
                        state.withLock { $0.running -= 1 }
                    }, group)
            } else {
                queue.async(group: group) {
                    state.withLock { $0.running += 1 }
                    usleep(2000)
                    state.withLock { $0.running -= 1 }
                }
            }
        }
        queue.sync(flags: .barrier) {}
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success, "every block left its group")
        return state.withLock { $0.overlaps }
    }
}
