import CRaceLabSupport
import Foundation
import RaceLabHarness
import Synchronization
import XCTest

@_spi(LabAuthoring) @testable import LabKit

/// A hold belongs to its race: once the asker is done with it (`rl_hold_end_round`, which
/// `ThreadHold.race` calls after its `meanwhile`), a racing thread that got to it late (a busy
/// machine started it late) is never stopped, so the story never waits for a thread no race is
/// about.
final class ThreadHoldRoundTests: XCTestCase {
    func testAHoldArmedAfterItsRoundEndedIsRefused() throws {
        #if os(Linux)
            try requireHolds()
            XCTAssertEqual(rl_preemption_start(1, 1_000, 0), 0)
            defer { rl_preemption_stop() }
            let round = rl_hold_round()
            rl_hold_end_round()
            XCTAssertEqual(runRacingThread(round: round), 0, "armed for a round that is over")
        #else
            throw XCTSkip("holds are Linux only")
        #endif
    }

    func testAHoldNotReachedWhenItsRoundEndsIsTakenBack() throws {
        #if os(Linux)
            try requireHolds()
            XCTAssertEqual(rl_preemption_start(1, 1_000, 0), 0)
            defer { rl_preemption_stop() }
            let armedNow = DispatchSemaphore(value: 0)
            let roundOver = DispatchSemaphore(value: 0)
            let armed = Atomic<Int32>(-1)
            let done = DispatchSemaphore(value: 0)
            let round = rl_hold_round()
            Thread.detachNewThread {
                // Far more points than it passes before the round ends (two waits), then many.
                armed.store(rl_hold_arm_self(10, 600_000_000_000, 0, round), ordering: .relaxed)
                armedNow.signal()
                roundOver.wait()
                let lock = NSLock()
                for _ in 0..<50 {
                    lock.lock()
                    lock.unlock()
                }
                done.signal()
            }
            armedNow.wait()
            rl_hold_end_round()
            roundOver.signal()
            // Held, it would wait for 600 s of this thread's own time.
            XCTAssertEqual(done.wait(timeout: .now() + 60), .success, "the thread was held after its round ended")
            XCTAssertEqual(armed.load(ordering: .relaxed), 1, "armed while its round was on")
            XCTAssertFalse(ThreadHold.isHolding)
        #else
            throw XCTSkip("holds are Linux only")
        #endif
    }

    /// A round that is on still holds (the two tests above are not refusing every hold).
    func testAHoldInItsRoundStopsTheThread() throws {
        #if os(Linux)
            try requireHolds()
            XCTAssertEqual(rl_preemption_start(1, 1_000, 0), 0)
            defer { rl_preemption_stop() }
            var held = false
            let finished = Atomic<Bool>(false)
            Checkpoint.reset()
            let run = ScenarioRun(mode: .stress, iteration: 1, seed: 1)
            held = ThreadHold.race(
                run, skipping: 0,
                work: {
                    let lock = NSLock()
                    lock.lock()
                    lock.unlock()
                    finished.store(true, ordering: .relaxed)
                }
            ) {
                XCTAssertFalse(finished.load(ordering: .relaxed), "held before its work was done")
            }
            XCTAssertTrue(held)
        #else
            throw XCTSkip("holds are Linux only")
        #endif
    }

    #if os(Linux)
        private func requireHolds() throws {
            try XCTSkipUnless(PlatformChecks.here.preemptionAndHolds, "this build has no preemption or holds")
            guard rl_tsan_enabled() == 1 else { throw XCTSkip("holds ride on TSan's signal delivery") }
        }

        /// Arms a self-hold at the first point for `round` on a new thread, which then passes a few
        /// locks; the arming's result, once the thread is done (it fails the test if held for a minute).
        private func runRacingThread(round: Int64) -> Int32 {
            let armed = Atomic<Int32>(-1)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                armed.store(rl_hold_arm_self(0, 600_000_000_000, 0, round), ordering: .relaxed)
                let lock = NSLock()
                for _ in 0..<10 {
                    lock.lock()
                    lock.unlock()
                }
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 60), .success, "the thread was held")
            return armed.load(ordering: .relaxed)
        }
    #endif
}
