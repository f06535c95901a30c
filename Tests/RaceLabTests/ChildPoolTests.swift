import Foundation
import RaceLabHarness
import XCTest

final class ChildPoolTests: XCTestCase {
    func testResultsComeBackInOrderWithNoMoreThanJobsAtOnce() {
        let running = Counter()
        let finished = Counter()
        let peak = IndexedResults<Int>(count: 40)
        let results = ChildPool.map(40, jobs: 3) { index in
            let now = running.next() - finished.value
            peak.set(index, now)
            usleep(useconds_t(1000 * (index % 4)))
            _ = finished.next()
            return index * index
        }
        XCTAssertEqual(results, (0..<40).map { $0 * $0 })
        XCTAssertLessThanOrEqual(peak.all.max() ?? 0, 3)
        XCTAssertGreaterThan(peak.all.max() ?? 0, 1, "more than one ran at once")
    }

    func testOneJobRunsInTurn() {
        let order = IndexedResults<Int>(count: 5)
        let counter = Counter()
        _ = ChildPool.map(5, jobs: 1) { index in order.set(index, counter.next()) }
        XCTAssertEqual(order.all, [1, 2, 3, 4, 5])
    }

    func testDefaultJobsHonoursTheEnvironmentAndIsAtLeastTwo() {
        XCTAssertEqual(ChildPool.defaultJobs(environment: ["RACELAB_JOBS": "5"]), 5)
        XCTAssertGreaterThanOrEqual(ChildPool.defaultJobs(environment: [:]), 2)
        XCTAssertGreaterThanOrEqual(ChildPool.defaultJobs(environment: ["RACELAB_JOBS": "zero"]), 2)
    }

    /// A check's children: all at once when that is more than the default; RACELAB_JOBS wins.
    func testJobsForAllChildrenOfOneLab() {
        let cores = ChildPool.defaultJobs(environment: [:])
        XCTAssertEqual(ChildPool.jobs(forAll: cores + 7, environment: [:]), cores + 7)
        XCTAssertEqual(ChildPool.jobs(forAll: 1, environment: [:]), cores)
        XCTAssertEqual(ChildPool.jobs(forAll: 500, environment: [:]), 64)
        XCTAssertEqual(ChildPool.jobs(forAll: 15, environment: ["RACELAB_JOBS": "3"]), 3)
    }
}
