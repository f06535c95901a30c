import Foundation
import XCTest

@testable import RaceLabTesting

/// A count behind a lock, read and written in two turns of it: no data race, but an update
/// written by another thread between the two is lost (the kind of bug only an interleaving shows).
private final class TwoStepCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }

    func add(checkpoint: Bool = false) {
        let seen = lock.withLock { count }
        if checkpoint { raceCheckpoint("counter.between-read-and-write") }
        lock.withLock { count = seen + 1 }
    }

    func addWhole() { lock.withLock { count += 1 } }
}

/// A count with no synchronisation at all: a data race ThreadSanitizer reports.
private final class BareCounter: @unchecked Sendable {
    var count = 0
}

/// RaceLabTesting from a test, as a package that depends on RaceLab uses it: each pass runs in
/// this test program started again on the one test.
final class RaceTestTests: XCTestCase {
    /// A check that fails in every interleaving (the count is right, the expectation wrong), so
    /// the report itself is what is tested: the pass, the check's message at the test's line,
    /// the seed and the replay command. (Whether stress finds a lost update is chance; the
    /// explore test below holds the interleaving instead.)
    func testAFailedCheckIsReportedWithItsLineSeedAndReplay() throws {
        XCTAssertThrowsError(
            try RaceTest(self, passes: [.stress(iterations: 5)], seed: 7).run {
                let counter = TwoStepCounter()
                return Race([{ counter.addWhole() }, { counter.addWhole() }]) {
                    counter.value == 3 ? nil : "the count is \(counter.value), not 3"
                }
            }
        ) { error in
            let failure = error as? RaceTestFailure
            XCTAssertEqual(failure?.seed, 7)
            XCTAssertEqual(failure?.pass, "stress")
            XCTAssertTrue(
                failure?.message.contains("invariant in iteration 1: the count is 2, not 3 (RaceTestTests.swift:")
                    == true, "\(error)")
            XCTAssertEqual(
                failure?.replay,
                "RACELAB_SEED=7 swift test --sanitize=thread --filter RaceLabTests.RaceTestTests/"
                    + "testAFailedCheckIsReportedWithItsLineSeedAndReplay")
        }
    }

    func testTheFixIsCleanAndSaysWhatItTried() throws {
        let summary = try RaceTest(self, passes: [.stress(iterations: 60)], seed: 7).run {
            let counter = TwoStepCounter()
            return Race([
                { for _ in 0..<50 { counter.addWhole() } }, { for _ in 0..<50 { counter.addWhole() } }
            ]) { counter.value == 100 ? nil : "\(100 - counter.value) of 100 updates were lost" }
        }
        XCTAssertEqual(summary.passes.map(\.pass), ["stress"])
        XCTAssertEqual(summary.passes.map(\.iterations), [60], "every iteration asked for ran")
    }

    /// A checkpoint between the read and the write: the explore pass holds each thread there in
    /// turn while the other goes on, so the lost update is found whatever the seed.
    func testExploreFindsTheLostUpdateAtTheCheckpointEveryTime() throws {
        for seed in [UInt64(1), 2, 3] {
            XCTAssertThrowsError(
                try RaceTest(self, passes: [.explore(iterations: 10)], seed: seed).run {
                    let counter = TwoStepCounter()
                    return Race([{ counter.add(checkpoint: true) }, { counter.add(checkpoint: true) }]) {
                        counter.value == 2 ? nil : "an update was lost: the count is \(counter.value), not 2"
                    }
                }
            ) { error in
                XCTAssertEqual((error as? RaceTestFailure)?.pass, "explore")
                XCTAssertTrue("\(error)".contains("an update was lost"), "\(error)")
            }
        }
    }

    func testADataRaceIsExplainedInPlainWordsWithTheTestsOwnLines() throws {
        XCTAssertThrowsError(
            try RaceTest(self, passes: [.stress(iterations: 5)], seed: 3).run {
                let counter = BareCounter()
                return Race([{ counter.count += 1 }, { counter.count += 1 }])
            }
        ) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("tsan in iteration 1: Swift access race"), text)
            XCTAssertTrue(text.contains("Report 1 of 1: Swift access race"), "explained whole: \(text)")
            XCTAssertTrue(text.contains("RaceTestTests.swift:"), "the explanation names the test's own line: \(text)")
        }
    }

    /// A crash in a body ends the child, not the test run, and is the test's failure.
    func testACrashInABodyIsAFailureNotTheEndOfTheTestRun() throws {
        XCTAssertThrowsError(
            try RaceTest(self, passes: [.stress(iterations: 3)], seed: 1).run {
                let numbers = [1, 2, 3]
                let index = numbers.count
                return Race([{ _ = numbers[index] }, {}])
            }
        ) { error in
            XCTAssertTrue("\(error)".contains("crash in iteration 1"), "\(error)")
        }
    }

    /// A Swift Testing test is named by its ID (which holds its source location): the child is
    /// started through Swift Testing on that ID alone, and the replay command selects it alone.
    func testASwiftTestingTestIsRunAndReplayedByItsAnchoredID() {
        var test = RaceTest(testName: "Tests.Suite/lost()/Suite.swift:9:6")
        test.runner = .swiftTesting
        XCTAssertEqual(RaceParent.filter(test), #"'^Tests\.Suite\/lost\(\)\/Suite\.swift:9:6$'"#)
        XCTAssertEqual(RaceParent.filter(RaceTest(testName: "Tests.Suite/testLost")), "Tests.Suite/testLost")
    }
}
