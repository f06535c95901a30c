import Foundation
import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabHarness
import XCTest

#if RACELAB_SOLUTIONS
    import SolutionCatalog
#endif

/// too-many-threads: a thread per photo is not a data race, so ThreadSanitizer has nothing to
/// say; the card reader's count of reads in progress is the only witness.
final class TooManyThreadsTests: XCTestCase {
    /// In this process, under TSan: every scripted iteration of the broken gallery reads the held
    /// photo and the whole second album at once (1 + 8), and no race is reported in either mode.
    func testBrokenReadsEveryPhotoAtOnceWithoutAnyDataRace() throws {
        let lab = try XCTUnwrap(testLabs.lab("too-many-threads"))
        let scripted = ScenarioDriver.run(
            lab,
            plan: ScenarioPlan(
                lab: lab.id, variant: "broken", mode: .scripted, iterations: 3, seed: 41, stopAtFirstDetection: false))
        XCTAssertEqual(scripted.iterationsRun, 3)
        XCTAssertEqual(scripted.failures.count, 3, "\(scripted.failures)")
        XCTAssertTrue(
            scripted.failures.allSatisfy { $0.message.hasSuffix("too many threads at once") }, "\(scripted.failures)")
        // Up to 9 (the held read and the 8 of the second album); fewer on a busy machine, where a
        // thread may finish its read before the last ones start, but always more than one.
        XCTAssertGreaterThanOrEqual(
            scripted.metrics["most reads at once"] ?? 0, 3 * 2, "more than one read at once in every iteration")
        XCTAssertEqual(scripted.tsanReports, 0)

        let stress = ScenarioDriver.run(
            lab,
            plan: ScenarioPlan(
                lab: lab.id, variant: "broken", mode: .stress, iterations: 20, seed: 42, stopAtFirstDetection: false))
        XCTAssertEqual(stress.tsanReports, 0, "too many threads is not a data race")
    }

    /// The fix reads exactly one photo at a time in every iteration, and shows them all.
    func testFixedReadsOnePhotoAtATime() throws {
        let lab = try XCTUnwrap(testLabs.lab("too-many-threads"))
        try LabsTestSupport.requireSolutions(lab)
        for mode in [RunMode.scripted, .stress] {
            let outcome = ScenarioDriver.run(
                lab,
                plan: ScenarioPlan(
                    lab: lab.id, variant: "fixed", mode: mode, iterations: 10, seed: 43, stopAtFirstDetection: false))
            XCTAssertEqual(outcome.failures, [], "\(mode)")
            XCTAssertEqual(
                outcome.metrics["most reads at once"], 10, "\(mode): one read at a time, in each of 10 iterations")
        }
    }

    /// An operation queue left at its default width is the fix's most likely slip. On Linux its
    /// width comes from Dispatch's pool (about a thread per core), so on this 2-core machine it
    /// reads two photos at once: the story must catch that in every scripted run.
    func testAQueueWithoutAWidthIsCaught() throws {
        // the corpus ships with them
        try LabsTestSupport.requireSolutions(try XCTUnwrap(testLabs.lab("too-many-threads")))
        try XCTSkipIf(
            ProcessInfo.processInfo.activeProcessorCount < 2, "one core: Dispatch runs one operation at a time anyway")
        let result = try LabsTestSupport.runRacelab([
            "run", "too-many-threads", "--variant", "wrong-queue-no-width",
            "--mode", "scripted", "--runs", "3", "--seed", "44"
        ])
        XCTAssertEqual(result.status, 0, "expected: detected in every run\n\(result.stdout)\(result.stderr)")
        XCTAssertTrue(result.stdout.contains("DETECTED 3/3"), result.stdout)
    }
}
