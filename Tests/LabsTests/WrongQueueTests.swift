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

/// wrong-queue: only the harness's queue check sees the broken Clear; TSan has nothing to report.
final class WrongQueueTests: XCTestCase {
    func testBrokenIsCaughtByTheQueueCheckAndNotByTSan() throws {
        let lab = try XCTUnwrap(testLabs.lab("wrong-queue"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 43)
        let outcome = LabRunner.run(lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertTrue(run.fired(.invariant), TableReporter(colour: false).render([outcome]))
        XCTAssertFalse(run.fired(.tsan), "the canvas locks its own memory: misuse is no data race")
        let offQueue = try XCTUnwrap(run.failures.first { $0.message.contains("not on the render queue") })
        XCTAssertEqual(offQueue.message, "canvas wipe() ran on the main thread, not on the render queue")
        XCTAssertEqual(offQueue.shortLocation, "Broken.swift:34")
        XCTAssertTrue(run.failures.contains { $0.message.contains("rows show frames [0, 0, 1, 1, 1, 1]") },
                      "Clear landed in the middle of frame 1: \(run.failures.map(\.message))")
    }

    /// What the fixed variant's check relies on: a queue-specific value is found on that queue
    /// only, not on the main thread and not on another queue.
    func testQueueSpecificValueIsSeenOnlyOnItsQueue() {
        let key = DispatchSpecificKey<Bool>()
        let tagged = DispatchQueue(label: "wrong-queue-tests.tagged")
        tagged.setSpecific(key: key, value: true)
        let other = DispatchQueue(label: "wrong-queue-tests.other")
        XCTAssertNil(DispatchQueue.getSpecific(key: key))
        XCTAssertEqual(tagged.sync { DispatchQueue.getSpecific(key: key) }, true)
        XCTAssertNil(other.sync { DispatchQueue.getSpecific(key: key) })
    }
}
