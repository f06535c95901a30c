import CRaceLabSupport
import Foundation
import Synchronization
import XCTest

@_spi(LabAuthoring) @testable import LabKit

/// A block sent to a global or concurrent queue is work in hand until it begins, even while
/// Dispatch's pool has no thread for it (every one blocked: on Linux the pool grows about once
/// a second). A serial queue's block stuck behind its queue's own stuck block is not.
final class QueueKindsTests: XCTestCase {
    override func setUpWithError() throws {
        #if !os(Linux) || RACELAB_NO_LINUX_FACILITIES
            throw XCTSkip("the queue calls are interposed on Linux, with ThreadSanitizer's interceptors")
        #endif
    }

    /// Fill the pool with blocked blocks, send one more: no look may find the lab quiet before
    /// it has begun.
    func testABlockWaitingForThePoolIsNotQuiet() {
        assertNeverQuietBeforeTheLastBlockBegins { DispatchQueue.global().async(execute: $0) }
    }

    /// The same on a concurrent queue the lab made (with a quality of service: an attribute
    /// derived from the concurrent one).
    func testAConcurrentQueuesWaitingBlockIsNotQuiet() {
        let queue = DispatchQueue(label: "lab.concurrent", qos: .userInitiated, attributes: .concurrent)
        assertNeverQuietBeforeTheLastBlockBegins { queue.async(execute: $0) }
    }

    /// Sends as many blocks that wait as the pool is wide in this process, then one more.
    private func assertNeverQuietBeforeTheLastBlockBegins(
        _ send: (@escaping @Sendable () -> Void) -> Void, file: StaticString = #filePath, line: UInt = #line
    ) {
        rl_quiet_begin_story()
        let gate = DispatchSemaphore(value: 0)
        let blockers = Int(rl_usable_cpus())  // the pool's width in this process
        let running = TaskCount()
        for _ in 0..<blockers {
            send {
                running.value.add(1, ordering: .relaxed)
                gate.wait()
            }
        }
        defer { for _ in 0..<blockers { gate.signal() } }
        var deadline = LabDeadline(seconds: 10)
        while running.value.load(ordering: .relaxed) < blockers && !deadline.hasPassed() { usleep(1000) }
        let began = TaskCount()
        send { began.value.store(1, ordering: .relaxed) }
        var looks = QuietLooks()
        var quietBeforeItBegan = false
        deadline = LabDeadline(seconds: 10)
        while began.value.load(ordering: .relaxed) == 0 && !deadline.hasPassed() {
            if looks.agree(LabQuiet.now) && began.value.load(ordering: .relaxed) == 0 { quietBeforeItBegan = true }
            usleep(1000)
        }
        XCTAssertEqual(
            began.value.load(ordering: .relaxed), 1, "the pool grew and the block began", file: file, line: line)
        XCTAssertFalse(
            quietBeforeItBegan, "the lab looked quiet while a block waited for the pool", file: file, line: line)
    }

    /// Swift's tasks run on a concurrent queue as wide as the CPUs that never grows: a task
    /// behind tasks that all wait waits for them, not for the pool, and is not work in hand.
    func testATaskBehindWaitingTasksIsQuiet() {
        rl_quiet_begin_story()
        let gate = DispatchSemaphore(value: 0)
        let width = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))  // the runtime's queue width here
        let running = TaskCount()
        for _ in 0..<width {
            Task.detached {
                running.value.add(1, ordering: .relaxed)
                gate.wait()
            }
        }
        defer { for _ in 0...width { gate.signal() } }
        var deadline = LabDeadline(seconds: 10)
        while running.value.load(ordering: .relaxed) < width && !deadline.hasPassed() { usleep(1000) }
        Task.detached { running.value.add(1, ordering: .relaxed) }
        XCTAssertTrue(goesQuiet(), "the last task waits for a task, which waits for the story: quiet")
    }

    /// A concurrent queue that holds its blocks back itself (suspended, not activated yet, behind
    /// a barrier that waits, or sending them through a serial queue that is stuck): a block sent
    /// to it waits for the lab, not for the pool. The lab is quiet.
    func testABlockAQueueHoldsBackItselfIsQuiet() {
        rl_quiet_begin_story()
        let suspended = DispatchQueue(label: "lab.suspended", attributes: .concurrent)
        suspended.suspend()
        defer { suspended.resume() }
        suspended.async {}
        XCTAssertTrue(goesQuiet(), "a suspended queue's block")

        rl_quiet_begin_story()
        let inactive = DispatchQueue(label: "lab.inactive", attributes: [.concurrent, .initiallyInactive])
        defer { inactive.activate() }
        inactive.async {}
        XCTAssertTrue(goesQuiet(), "a block of a queue not activated yet")

        rl_quiet_begin_story()
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        let barriered = DispatchQueue(label: "lab.barrier", attributes: .concurrent)
        barriered.async(flags: .barrier) { gate.wait() }
        barriered.async {}
        XCTAssertTrue(goesQuiet(), "a block behind a barrier that waits")

        rl_quiet_begin_story()
        let serialGate = DispatchSemaphore(value: 0)
        defer { serialGate.signal() }
        let serial = DispatchQueue(label: "lab.serial-target")
        serial.async { serialGate.wait() }
        let throughSerial = DispatchQueue(label: "lab.through-serial", attributes: .concurrent, target: serial)
        throughSerial.async {}
        XCTAssertTrue(goesQuiet(), "a block sent through a serial queue that is stuck")
    }

    /// A serial queue whose block waits (for the story) holds the next block back: the lab is
    /// quiet, as nothing in it can go on by itself.
    func testABlockBehindAStuckSerialBlockIsQuiet() {
        rl_quiet_begin_story()
        let queue = DispatchQueue(label: "lab.serial")
        let gate = DispatchSemaphore(value: 0)
        let waiting = Atomic<Bool>(false)
        queue.async {
            waiting.store(true, ordering: .relaxed)
            gate.wait()
        }
        defer { gate.signal() }
        var deadline = LabDeadline(seconds: 10)
        while !waiting.load(ordering: .relaxed) && !deadline.hasPassed() { usleep(1000) }
        queue.async {}
        XCTAssertTrue(goesQuiet(), "stuck behind its queue's own block, the second block is not work in hand")
    }
}

/// Tasks started by a test, counted (a class: a task may only capture what is Sendable).
private final class TaskCount: Sendable {
    let value = Atomic<Int>(0)
}

/// Whether two looks in a row find the lab quiet within 10 s.
private func goesQuiet() -> Bool {
    var looks = QuietLooks()
    var deadline = LabDeadline(seconds: 10)
    while !deadline.hasPassed() {
        if looks.agree(LabQuiet.now) { return true }
        usleep(1000)
    }
    return false
}
