import CRaceLabSupport
import Synchronization
import XCTest

@_spi(LabAuthoring) @testable import LabKit

/// A self-hold (ThreadHold.race) stops a thread at its k-th synchronisation point, counted
/// exactly, also past the locks where TSan handles pending signals in a loop: the further k,
/// the further the held thread got, and every step between two locks can be reached.
final class ThreadHoldCountTests: XCTestCase {
    func testEachSkippedPointMovesTheHoldOnPastLocks() throws {
        #if os(Linux)
            guard rl_tsan_enabled() == 1 else { throw XCTSkip("holds ride on TSan's signal delivery") }
            XCTAssertEqual(rl_preemption_start(1, 1_000, 0), 0)  // holds need its handler; its own signals sleep 0
            defer { rl_preemption_stop() }
            Checkpoint.reset()
            let run = ScenarioRun(mode: .stress, iteration: 1, seed: 1)
            var stepsSeen: [Int] = []  // per k: the step the held thread had done
            for skipped in 0..<40 {
                let lock = NSLock()
                let step = Atomic<Int>(0)
                let held = ThreadHold.race(
                    run, skipping: skipped,
                    work: {
                        for next in 1...6 {
                            lock.lock()
                            step.store(next, ordering: .relaxed)
                            lock.unlock()
                        }
                    }
                ) {
                    stepsSeen.append(step.load(ordering: .relaxed))
                }
                if !held { break }
            }
            XCTAssertEqual(stepsSeen, stepsSeen.sorted(), "a later point never shows less progress: \(stepsSeen)")
            XCTAssertTrue(
                Set(stepsSeen).isSuperset(of: 0...6),
                "held before each of the six steps, and after the last: \(stepsSeen)")
        #else
            throw XCTSkip("holds are Linux only")
        #endif
    }
}
