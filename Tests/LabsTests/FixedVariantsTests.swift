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

/// Every reference fixed variant, in all three modes: in child processes side by side (as
/// `racelab run` runs them), and briefly in this very process on XCTest's main thread, where any
/// race fails `swift test` outright.
final class FixedVariantsTests: XCTestCase {
    func testSuiteRunsUnderThreadSanitizer() {
        XCTAssertTrue(LabsTestSupport.tsanEnabled, "run the tests with `make test` (swift test --sanitize=thread)")
    }

    /// Every fixed variant in every mode, once. The long soak is elsewhere: `make run` (the labs'
    /// own stress iterations, twice), the grader's stress pass and `racelab bench corpus`; here
    /// a longer one would only make `make test` slower on a 2-core machine.
    static let iterations: [RunMode: Int] = [.scripted: 5, .stress: 60]

    func testEveryFixedVariantIsCleanInEveryModeInChildren() {
        var rows: [LabRunner.Row] = []
        for lab in testLabs.labs {
            for variant in lab.variants where variant.kind == .fixed {
                for mode in [RunMode.scripted, .explore, .stress] {
                    var settings = RunSettings(
                        executable: LabsTestSupport.child, iterations: Self.iterations[mode], runs: 1, seed: 2026)
                    settings.programName = "racelab"
                    rows.append(LabRunner.Row(lab: lab.lab, variant: variant, mode: mode, settings: settings))
                }
            }
        }
        let outcomes = LabRunner.run(rows, jobs: ChildPool.defaultJobs())
        for outcome in outcomes {
            let context = "\(outcome.lab) \(outcome.variant) \(outcome.mode.rawValue)"
            XCTAssertTrue(outcome.met, TableReporter(colour: false).render([outcome]))
            for run in outcome.runs {
                XCTAssertNil(run.harnessError, context)
                XCTAssertEqual(run.reports.count, 0, "TSan reported a race in \(context) (\(run.reproduce))")
                XCTAssertEqual(run.failures.count, 0, "\(context): \(run.failures) (\(run.reproduce))")
                if outcome.mode == .explore {
                    XCTAssertEqual(
                        run.iterationsRun, 1 + (run.explored ?? -1), "\(context): the survey, then every point")
                } else {
                    XCTAssertEqual(run.iterationsRun, Self.iterations[outcome.mode], context)
                }
            }
        }
        // A lab may register several fixed variants (e.g. mandelbrot's "fixed" and "fixed-gcd"). Every
        // lab that ships its solutions (a Fixed*.swift in its folder) has one; a student kit has none
        // (racelab export leaves them out), and then there is nothing to count.
        let fixedVariants = testLabs.labs.reduce(0) { $0 + $1.variants.filter { $0.kind == .fixed }.count }
        XCTAssertEqual(outcomes.count, fixedVariants * 3, "every fixed variant is run in all three modes")
        for lab in testLabs.labs where LabsTestSupport.shipsSolutions(lab) {
            XCTAssertTrue(
                lab.variants.contains { $0.kind == .fixed },
                "\(lab.id) has a Fixed*.swift but registers no fixed variant")
        }
    }

    /// In this process, under the test's own TSan: a few iterations of the story and of stress.
    func testEveryFixedVariantIsCleanInProcess() {
        XCTAssertTrue(Thread.isMainThread)
        for lab in testLabs.labs {
            for variant in lab.variants where variant.kind == .fixed {
                for (mode, iterations) in [(RunMode.scripted, 2), (.stress, 20)] {
                    let plan = ScenarioPlan(
                        lab: lab.id, variant: variant.name, mode: mode, iterations: iterations,
                        seed: 2026, stopAtFirstDetection: false)
                    let outcome = ScenarioDriver.run(lab, plan: plan)
                    let context = "\(lab.id) \(variant.name) \(mode.rawValue) seed \(plan.seed)"
                    XCTAssertEqual(outcome.iterationsRun, iterations, context)
                    XCTAssertEqual(outcome.failures, [], context)
                    XCTAssertEqual(outcome.tsanReports, 0, "TSan reported a race in \(context)")
                }
            }
        }
    }

    /// Exercises are held to "a view dies on the main thread" from the lab that teaches it on: the
    /// four labs before off-main-dealloc in the learning path are exempt (a note), the rest are not.
    func testExercisesKeepViewsReleaseOnMainFromOffMainDeallocOn() throws {
        let ids = testLabs.labs.map(\.id)
        let taught = try XCTUnwrap(ids.firstIndex(of: "off-main-dealloc"))
        XCTAssertEqual(Array(ids.prefix(taught)), ["list-adder", "ui-off-main", "stale-results", "cancellation"])
        for (index, lab) in testLabs.labs.enumerated() {
            XCTAssertEqual(lab.exerciseKeepsViewReleaseOnMain, index >= taught, lab.id)
        }
    }
}
