import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabGrading
import RaceLabHarness
import RaceLabReports
import TSanReports
import XCTest

#if RACELAB_SOLUTIONS
    import SolutionCatalog
#endif

/// once-only-init: the broken nil check builds more than one cache; and the lesson's claim about `static let`.
final class OnceOnlyInitTests: XCTestCase {
    func testBrokenBuildsTwoCachesAndRacesOnTheSlot() throws {
        let lab = try XCTUnwrap(testLabs.lab("once-only-init"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 42)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertTrue(run.fired(.tsan), TableReporter(colour: false).render([outcome]))
        XCTAssertTrue(run.fired(.invariant), TableReporter(colour: false).render([outcome]))
        // The loader's build is held while two more callers arrive; each may build its own.
        XCTAssertGreaterThanOrEqual(run.metrics["caches built"] ?? 0, 2, "more than one cache: the bug")
        let lines = Set(run.reports.flatMap { $0.frames(under: lab.info.folder.path) }.compactMap(\.shortLocation))
        XCTAssertTrue(
            lines.isSuperset(of: ["Broken.swift:17", "Broken.swift:18"]), "the nil check and the store: \(lines)")
    }

    #if RACELAB_CORPUS
        /// The idiomatic fix, a `static let`, is built once per process: in the first launch (the
        /// first iteration) only, then shared by every later app object. The scenario accepts that in
        /// every pass: in a launch whose app already had its cache, nothing may be built.
        func testStaticLetFixIsCleanInEveryPass() throws {
            let lab = try XCTUnwrap(testLabs.lab("once-only-init"))
            let variant = Lab.Variant(kind: .validFix, name: "valid-static-let")
            for (mode, iterations) in [(RunMode.scripted, 3), (.explore, 41), (.stress, 60)] {
                let settings = RunSettings(executable: LabsTestSupport.child, iterations: iterations, runs: 1, seed: 17)
                let outcome = LabRunner.run(lab, variant: variant, mode: mode, settings: settings)
                let run = try XCTUnwrap(outcome.runs.first)
                XCTAssertTrue(
                    !run.detected && run.harnessError == nil,
                    "\(mode): \(TableReporter(colour: false).render([outcome]))")
                XCTAssertEqual(run.metrics["caches built"], 1, "\(mode): one build in the whole process")
            }
        }

        /// Two callers arrive while the first build is under way: code that wakes a single waiter
        /// when the cache is ready leaves the other one waiting, and the story shows it every time.
        func testWakingOneWaiterIsCaughtInTheStory() throws {
            let lab = try XCTUnwrap(testLabs.lab("once-only-init"))
            let variant = Lab.Variant(kind: .wrongFix, name: "wrong-semaphore-wakes-one")
            let outcome = LabRunner.run(
                lab, variant: variant, mode: .scripted,
                settings: RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 18))
            let run = try XCTUnwrap(outcome.runs.first)
            XCTAssertTrue(
                run.failures.contains { $0.message.contains("only 2 of 3 requests for the cache returned") },
                "\(run.failures.map(\.message))")
        }
    #endif

    /// The lesson says a `static let` is built once, however many threads ask first. Four threads
    /// ask at the same moment while the initialiser is slow: one build, one instance, no race.
    func testStaticLetRunsItsInitialiserOnce() {
        let group = DispatchGroup()
        let answers = OnceOnlyInitTestAnswers()
        for _ in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                answers.add(OnceOnlyInitTestShared.cache)
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(OnceOnlyInitTestShared.builds.value, 1)
        XCTAssertEqual(Set(answers.all.map(ObjectIdentifier.init)).count, 1)
    }
}

private final class OnceOnlyInitTestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

private final class OnceOnlyInitTestAnswers: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [AnyObject] = []
    func add(_ answer: AnyObject) { lock.withLock { answers.append(answer) } }
    var all: [AnyObject] { lock.withLock { answers } }
}

private enum OnceOnlyInitTestShared {
    static let builds = OnceOnlyInitTestCounter()
    static let cache: NSObject = {
        builds.increment()
        usleep(50_000)  // slow, so the other threads arrive while it is being built
        return NSObject()
    }()
}
