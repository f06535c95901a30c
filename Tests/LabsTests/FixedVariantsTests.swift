import LabCatalog
#if RACELAB_SOLUTIONS
import SolutionCatalog
#endif
@_spi(LabAuthoring) import LabKit
import RaceLabGrading
import RaceLabHarness
import RaceLabReports
import TSanReports
import XCTest

/// Every reference fixed variant runs in this very process, on XCTest's main thread, under
/// TSan: any race it has fails `swift test` outright, and the invariants are asserted here.
final class FixedVariantsTests: XCTestCase {
    func testSuiteRunsUnderThreadSanitizer() {
        XCTAssertTrue(LabsTestSupport.tsanEnabled, "run the tests with `make test` (swift test --sanitize=thread)")
    }

    func testEveryFixedVariantIsCleanInProcess() {
        XCTAssertTrue(Thread.isMainThread)
        var checked = 0
        for lab in testLabs.labs {
            for variant in lab.variants where variant.kind == .fixed {
                for (mode, iterations) in [(RunMode.scripted, 5), (.explore, lab.info.defaultIterations[.explore] ?? 41), (.stress, 150)] {
                    let plan = ScenarioPlan(lab: lab.id, variant: variant.name, mode: mode, iterations: iterations,
                                            seed: 2026, stopAtFirstDetection: false)
                    let outcome = ScenarioDriver.run(lab, plan: plan)
                    let context = "\(lab.id) \(variant.name) \(mode.rawValue) seed \(plan.seed)"
                    if mode == .explore {
                        XCTAssertEqual(outcome.iterationsRun, 1 + outcome.explored.count, "\(context): the survey, then every point")
                    } else {
                        XCTAssertEqual(outcome.iterationsRun, iterations, context)
                    }
                    XCTAssertEqual(outcome.failures, [], context)
                    XCTAssertEqual(outcome.tsanReports, 0, "TSan reported a race in \(context)")
                    checked += 1
                }
            }
        }
        // A lab may register several fixed variants (e.g. mandelbrot's "fixed" and "fixed-gcd"). Every
        // lab that ships its solutions (a Fixed*.swift in its folder) has one; a student kit has none
        // (racelab export leaves them out), and then there is nothing to count.
        let fixedVariants = testLabs.labs.reduce(0) { $0 + $1.variants.filter { $0.kind == .fixed }.count }
        XCTAssertEqual(checked, fixedVariants * 3, "every fixed variant is run in all three modes")
        for lab in testLabs.labs where LabsTestSupport.shipsSolutions(lab) {
            XCTAssertTrue(lab.variants.contains { $0.kind == .fixed }, "\(lab.id) has a Fixed*.swift but registers no fixed variant")
        }
    }
}
