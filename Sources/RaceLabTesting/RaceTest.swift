import Foundation
import LabKit

/// Tries concurrent code many times, under ThreadSanitizer, each pass in a child process of its
/// own, and throws a ``RaceTestFailure`` that explains the first problem found: a race
/// ThreadSanitizer reported, a failed check, a crash, or a hang, with the seed and the command
/// that replays it.
///
/// In an XCTest test method of a package tested with `swift test --sanitize=thread`:
///
/// ```swift
/// func testNoHitIsLost() throws {
///     try RaceTest(self).run {
///         let counter = HitCounter()
///         return Race([
///             { for _ in 0..<500 { counter.record("home") } },
///             { for _ in 0..<500 { counter.record("home") } }
///         ]) {
///             counter.hits("home") == 1000 ? nil : "\(1000 - counter.hits("home")) of 1000 visits were lost"
///         }
///     }
/// }
/// ```
///
/// How it works: the test program is started again, running only this test, with the pass to
/// make; there `run` plays the races and reports on a channel of its own, and exits. A crash or
/// a hang in the code under test ends that child, never the test run.
public struct RaceTest {
    /// The test, as the test program's filter names it ("Module.Class/testMethod").
    public let testName: String
    public var passes: [RacePass]
    /// The base seed; nil: `RACELAB_SEED` from the environment if set, else a random one. The
    /// failure message gives the seed that replays it.
    public var seed: UInt64?
    /// Seconds without progress (the bodies' threads stuck) before a child is judged hung.
    public var hangSeconds: Double = 10
    /// The test library the test runs in: the child is started through it, on this one test.
    var runner = TestRunner.xctest
    /// Why this test cannot be run as a race test (said by `run`, which then runs nothing).
    var refusal: String?

    enum TestRunner {
        case xctest, swiftTesting
    }

    /// The test method `function` of `testCase` (an `XCTestCase`; `#function` by default).
    public init<TestCase: AnyObject>(
        _ testCase: TestCase, passes: [RacePass] = [.stress(iterations: 100)], seed: UInt64? = nil,
        function: String = #function
    ) {
        let method = function.split(separator: "(").first.map(String.init) ?? function
        self.init(testName: "\(String(reflecting: TestCase.self))/\(method)", passes: passes, seed: seed)
    }

    /// A test named as the test program's filter names it ("Module.Class/testMethod").
    public init(testName: String, passes: [RacePass] = [.stress(iterations: 100)], seed: UInt64? = nil) {
        precondition(!passes.isEmpty, "a race test needs at least one pass")
        self.testName = testName
        self.passes = passes
        self.seed = seed
    }

    /// Runs every pass, `makeRace` giving a fresh ``Race`` for each iteration. Returns what was
    /// tried when all is clean; throws ``RaceTestFailure`` at the first pass that found a problem.
    @discardableResult
    public func run(
        file: StaticString = #filePath, line: UInt = #line, _ makeRace: @escaping () -> Race
    ) throws -> RaceTestSummary {
        try runPasses { plan in RaceChild.play(plan, makeRace, file: file, line: line) }
    }

    /// Runs every pass on async code, `makeRace` giving a fresh ``AsyncRace`` for each
    /// iteration; give it ``RacePass/async(iterations:)``, which orders the bodies' jobs (the
    /// default passes, `.stress`, leave them to Swift's own pool).
    @discardableResult
    public func run(
        file: StaticString = #filePath, line: UInt = #line, _ makeRace: @escaping () -> AsyncRace
    ) throws -> RaceTestSummary {
        try runPasses { plan in RaceChild.play(plan, makeRace, file: file, line: line) }
    }
}

extension RaceTest {
    /// In the child started for this test, `play` its pass (it never returns); in the test
    /// itself, every pass in a child of its own.
    private func runPasses(play: (ScenarioPlan) -> Never) throws -> RaceTestSummary {
        if let refusal {
            throw RaceTestFailure(testName: testName, pass: "none", seed: seed ?? 0, message: refusal, replay: "")
        }
        if let plan = RaceChild.planHere(for: testName) { play(plan) }
        return try RaceParent(test: self).runPasses()
    }
}

/// What a clean ``RaceTest`` tried.
public struct RaceTestSummary: Sendable, CustomStringConvertible {
    public let testName: String
    public let seed: UInt64
    /// Per pass: its name and the iterations it ran.
    public let passes: [(pass: String, iterations: Int)]

    public var description: String {
        let tried = passes.map { "\($0.pass) \($0.iterations) iteration(s)" }.joined(separator: ", ")
        return "\(testName): clean (\(tried), seed \(seed)). A clean run shows that no problem was "
            + "found in these interleavings, not that none exists."
    }
}

/// The first problem a ``RaceTest`` found, explained: its message says what happened, where in
/// the code, with which seed, and how to replay it.
public struct RaceTestFailure: Error, CustomStringConvertible {
    public let testName: String
    public let pass: String
    public let seed: UInt64
    /// The whole explanation (ThreadSanitizer's report in plain words, or the failed check).
    public let message: String
    /// The command that replays this pass with this seed.
    public let replay: String

    public var description: String { message }
}
