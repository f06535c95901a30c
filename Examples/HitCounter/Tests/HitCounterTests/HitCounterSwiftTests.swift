import HitCounter
import RaceLabTesting
import Testing

/// The same two checks as HitCounterTests, written with Swift Testing: `RaceTest()` finds the
/// test it runs in.
@Suite struct HitCounterSwiftTests {
    /// The fix: no visit is lost, in any of the interleavings tried.
    @Test func noVisitIsLost() throws {
        let summary = try RaceTest().run {
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

    /// The first version loses visits, and the failure says so (expected here, so that the
    /// example's own suite is green).
    @Test func theFirstVersionLosesVisits() throws {
        let failure = #expect(throws: RaceTestFailure.self) {
            try RaceTest().run {
                let counter = LossyHitCounter()
                return Race([
                    { for _ in 0..<500 { counter.record("home") } },
                    { for _ in 0..<500 { counter.record("home") } }
                ]) {
                    let hits = counter.hits("home")
                    return hits == 1000 ? nil : "\(1000 - hits) of 1000 visits were lost"
                }
            }
        }
        print(failure.map { "\($0)" } ?? "no failure")
        #expect(failure.map { "\($0)".contains("visits were lost") } == true)
    }
}
