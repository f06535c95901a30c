import CRaceLabSupport
import XCTest

@testable import LabKit

/// The stress pass's priority order (PriorityOrder.c), its bookkeeping alone: who goes first,
/// the change points, and how the stories take turns between it and random pauses.
final class PriorityOrderTests: XCTestCase {
    let slots: [Int32] = [0, 1, 2]
    let threads: [Int64] = [101, 102, 103]

    override func tearDown() { rl_priority_order_begin(0, 1) }

    func choose(_ count: Int = 3, at nanoseconds: Int64 = 0) -> Int64 {
        rl_priority_order_choose(slots, threads, Int32(count), nanoseconds)
    }

    func testOffItChoosesNobody() {
        rl_priority_order_begin(0, 1)
        XCTAssertEqual(rl_priority_order_on(), 0)
        XCTAssertEqual(choose(), 0)
        XCTAssertEqual(rl_priority_order_first(), 0)
    }

    func testTheSameSeedGivesTheSameFirstAndItKeepsItsPlace() {
        rl_priority_order_begin(77, 1_000_000_000)
        let first = choose()
        XCTAssertTrue(threads.contains(first))
        XCTAssertEqual(rl_priority_order_first(), first)
        // No change point among the first looks (drawn among a billion), no one kept waiting.
        for look in 1...20 { XCTAssertEqual(choose(at: Int64(look) * 1_000), first) }
        XCTAssertEqual(rl_priority_order_rounds(), 21)
        XCTAssertEqual(rl_priority_order_changes(), 0)
        rl_priority_order_begin(77, 1_000_000_000)
        XCTAssertEqual(choose(), first, "the n-th thread seen gets the n-th priority drawn from the seed")
        // Alone, a thread is first, and no look counts as threads competing.
        rl_priority_order_begin(77, 1_000_000_000)
        XCTAssertEqual(choose(1), threads[0])
        XCTAssertEqual(rl_priority_order_rounds(), 0)
    }

    func testAChangePointDropsTheFirstBelowTheOthers() {
        rl_priority_order_begin(5, 1_000_000_000)
        let highest = choose()
        // A horizon of one: one change point, on the first look with threads competing.
        rl_priority_order_begin(5, 1)
        let afterTheChange = choose()
        XCTAssertNotEqual(afterTheChange, highest)
        XCTAssertTrue(threads.contains(afterTheChange))
        XCTAssertEqual(rl_priority_order_changes(), 1)
        // Dropped below every drawn priority, the first one of before never comes back first.
        for look in 1...10 { XCTAssertEqual(choose(at: Int64(look)), afterTheChange) }
        XCTAssertEqual(rl_priority_order_changes(), 1)
        // A horizon of three: as many change points as the seed draws (1 to 3), each on a look
        // of its own, so the first changes at each.
        for seed: UInt64 in 1...20 {
            rl_priority_order_begin(seed, 1_000_000_000)
            var firsts = [choose()]  // before any change point: the highest priority drawn
            rl_priority_order_begin(seed, 3)
            for look in 0...5 { firsts.append(choose(at: Int64(look))) }
            let changes = rl_priority_order_changes()
            XCTAssertTrue((1...3).contains(changes), "seed \(seed): \(changes)")
            let switches = zip(firsts, firsts.dropFirst()).filter { $0 != $1 }.count
            XCTAssertEqual(switches, Int(changes), "seed \(seed): \(firsts)")
        }
    }

    func testTheStoriesTakeTurnsPausesFirst() {
        let both = StressPass(iterations: 6, seed: 1)
        XCTAssertEqual(
            (1...6).map(both.way(ofIteration:)), [.pauses, .priority, .pauses, .priority, .pauses, .priority])
        let priority = StressPass(iterations: 3, seed: 1, schedule: .priority)
        XCTAssertEqual((1...3).map(priority.way(ofIteration:)), [.priority, .priority, .priority])
        let pauses = StressPass(iterations: 3, seed: 1, schedule: .pauses)
        XCTAssertEqual((1...3).map(pauses.way(ofIteration:)), [.pauses, .pauses, .pauses])
    }
}
