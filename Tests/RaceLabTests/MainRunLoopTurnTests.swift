import CRaceLabSupport
import Foundation
import Synchronization
import XCTest

@_spi(LabAuthoring) @testable import LabKit

/// The main thread's turns while a story waits: they run main-queue work as soon as it is sent,
/// and wake nothing else.
final class MainRunLoopTurnTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(ThreadHold.seesBlockedThreads, "CPU turns from the kernel's view of threads")
        rl_quiet_begin_story()
    }

    /// A story's wait turns the main run loop without waking dispatch's pool threads: a woken
    /// pool thread is work about to begin to the quiet look, so a wait that woke them every turn
    /// (a run loop run for a time arms a dispatch timer) kept the lab from ever looking quiet on
    /// a busy machine.
    func testAStorysWaitDoesNotWakeThePool() {
        func poolTurns() -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.reduce(0) { sum, task in
                let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
                guard name.contains("qos"), let id = Int64(task) else { return sum }  // libdispatch's workers
                return sum + max(Int(rl_thread_turns(id)), 0)
            }
        }
        let run = ScenarioRun(mode: .stress, iteration: 1, seed: 1)
        DispatchQueue.global().async {}  // the pool exists, as in any lab
        run.settle(timeout: 30)
        let before = poolTurns()
        run.waitUntil(timeout: 1, ownTime: false) { false }
        run.spin(for: 0.5)
        // 1.5 s of 2 ms turns: 750 turns, each woke a pool thread before.
        XCTAssertLessThan(poolTurns() - before, 50)
    }

    /// Work sent to the main queue during a turn's nap ends the nap and runs in that turn: the
    /// main thread answers it as a run loop that waits would, not a nap later.
    func testMainQueueWorkEndsTheNap() {
        final class Flag: Sendable { let raised = Atomic<Bool>(false) }
        let ran = Flag()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
            DispatchQueue.main.async { ran.raised.store(true, ordering: .relaxed) }
        }
        let started = Date()
        while !ran.raised.load(ordering: .relaxed) && Date().timeIntervalSince(started) < 20 {
            MainRunLoopTurn.take(napping: 10)
        }
        XCTAssertTrue(ran.raised.load(ordering: .relaxed))
        XCTAssertLessThan(Date().timeIntervalSince(started), 9, "the 10 s nap was cut short by the block")
    }
}
