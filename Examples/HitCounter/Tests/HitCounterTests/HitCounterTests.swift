import HitCounter
import RaceLabTesting
import XCTest

/// Two visitors at once, 500 visits each: no visit may be lost. Each test runs its races 100
/// times in a child process, with RaceLab stopping a thread now and then at a lock.
final class HitCounterTests: XCTestCase {
    /// The fix: no visit is lost, in any of the interleavings tried.
    func testNoVisitIsLost() throws {
        let summary = try RaceTest(self).run {
            let counter = HitCounter()
            return Race([
                { for _ in 0..<500 { counter.record("home") } },
                { for _ in 0..<500 { counter.record("home") } }
            ]) {
                let hits = counter.hits("home")
                return hits == 1000 ? nil : "\(1000 - hits) of 1000 visits were lost"
            }
        }
        print(summary)
    }

    /// The first version loses visits; RaceLab shows it, with the seed that replays it. (This
    /// test expects the failure, so that the example's own suite is green; in your code the
    /// failure is the test's.)
    func testTheFirstVersionLosesVisits() throws {
        XCTAssertThrowsError(
            try RaceTest(self).run {
                let counter = LossyHitCounter()
                return Race([
                    { for _ in 0..<500 { counter.record("home") } },
                    { for _ in 0..<500 { counter.record("home") } }
                ]) {
                    let hits = counter.hits("home")
                    return hits == 1000 ? nil : "\(1000 - hits) of 1000 visits were lost"
                }
            }
        ) { error in
            print(error)
            XCTAssertTrue("\(error)".contains("visits were lost"), "\(error)")
        }
    }
}
