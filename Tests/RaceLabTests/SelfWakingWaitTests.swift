import CRaceLabSupport
import Foundation
import Synchronization
import XCTest

@_spi(LabAuthoring) @testable import LabKit

/// `waitUntilDoneQuietOrSelfWaking` tells a thread that keeps waking itself from one that is only
/// slow to reach its wait, by the CPU turns each gets, never by how long the wait took.
final class SelfWakingWaitTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(ThreadHold.seesBlockedThreads, "CPU turns and 'quiet' from the kernel's view of threads")
        rl_quiet_begin_story()  // work earlier tests left queued is not this story's
    }

    /// A lab thread that is kept from its wait far past the patience (here one long sleep: a
    /// thread the machine does not run for seconds looks the same, busy and without turns) is
    /// waited for, and the lab is found quiet once it waits.
    func testAThreadSlowToReachItsWaitIsWaitedForPastThePatience() {
        let run = ScenarioRun(mode: .stress, iteration: 1, seed: 1)
        let gate = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            usleep(1_500_000)
            gate.wait()  // no time limit: quiet
        }
        let end = run.waitUntilDoneQuietOrSelfWaking(patience: 0.3) { false }
        XCTAssertEqual(end, .quiet)
        gate.signal()
    }

    /// A thread that naps and looks again, for ever, is judged once the patience has passed: it
    /// got the CPU by itself turn after turn.
    func testAThreadThatPollsIsSaidToWakeItself() throws {
        let run = ScenarioRun(mode: .stress, iteration: 1, seed: 1)
        let stop = Atomic<Bool>(false)
        Thread.detachNewThread {
            while !stop.load(ordering: .relaxed) { usleep(1_000) }
        }
        let started = Date()
        let end = run.waitUntilDoneQuietOrSelfWaking(patience: 0.3, cap: 20) { false }
        stop.store(true, ordering: .relaxed)
        guard case .wakesItself(_, let turns) = end else { return XCTFail("\(end)") }
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(turns), 20)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "judged before the cap")
    }

    /// A thread that spins without ever waiting may get no new turns on an idle CPU; the CPU time
    /// it runs says it never waits.
    func testAThreadThatSpinsIsSaidToWakeItself() {
        let run = ScenarioRun(mode: .stress, iteration: 1, seed: 1)
        let stop = Atomic<Bool>(false)
        Thread.detachNewThread {
            while !stop.load(ordering: .relaxed) {}
        }
        let end = run.waitUntilDoneQuietOrSelfWaking(patience: 0.3, cap: 20) { false }
        stop.store(true, ordering: .relaxed)
        guard case .wakesItself = end else { return XCTFail("\(end)") }
    }

    /// What the story waits for ends the wait at once, busy or not.
    func testTheConditionEndsTheWait() {
        let run = ScenarioRun(mode: .stress, iteration: 1, seed: 1)
        XCTAssertEqual(run.waitUntilDoneQuietOrSelfWaking(patience: 0.3) { true }, .done)
    }
}
