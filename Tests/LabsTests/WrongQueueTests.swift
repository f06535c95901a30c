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

/// wrong-queue: only the harness's queue check sees the broken Clear; TSan has nothing to report.
final class WrongQueueTests: XCTestCase {
    func testBrokenIsCaughtByTheQueueCheckAndNotByTSan() throws {
        let lab = try XCTUnwrap(testLabs.lab("wrong-queue"))
        let settings = RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 43)
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        let run = try XCTUnwrap(outcome.runs.first)
        XCTAssertTrue(run.fired(.invariant), TableReporter(colour: false).render([outcome]))
        XCTAssertFalse(run.fired(.tsan), "the canvas locks its own memory: misuse is no data race")
        let offQueue = try XCTUnwrap(run.failures.first { $0.message.contains("not on the render queue") })
        XCTAssertEqual(offQueue.message, "canvas wipe() ran on the main thread, not on the render queue")
        XCTAssertEqual(offQueue.shortLocation, "Broken.swift:34")
        XCTAssertTrue(
            run.failures.contains { $0.message.contains("rows show frames [0, 0, 1, 1, 1, 1]") },
            "Clear landed in the middle of frame 1: \(run.failures.map(\.message))")
    }

    #if RACELAB_CORPUS
        /// The second part of the story (Clear and at once frame 2; mid-frame, Clear and at once
        /// frame 3) catches Clears that run on the right queue but in the wrong order.
        func testClearsInTheWrongOrderAreCaughtInTheStory() throws {
            let lab = try XCTUnwrap(testLabs.lab("wrong-queue"))
            for name in ["wrong-delayed-wipe", "wrong-skip-while-busy", "wrong-sticky-cancel"] {
                let outcome = LabRunner.run(
                    lab, variant: Lab.Variant(kind: .wrongFix, name: name), mode: .scripted,
                    settings: RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 44))
                let run = try XCTUnwrap(outcome.runs.first)
                XCTAssertTrue(
                    run.failures.contains { $0.message.contains("but the last action asked for all of frame 3") },
                    "\(name): \(run.failures.map(\.message))")
                XCTAssertFalse(
                    run.failures.contains { $0.message.contains("not on the render queue") },
                    "\(name) stays on the render queue")
            }
        }

        /// A frame a later request made pointless may stop early: only what the quiet canvas shows counts.
        func testFramesLeftUnfinishedAreAccepted() throws {
            let lab = try XCTUnwrap(testLabs.lab("wrong-queue"))
            for mode in [RunMode.scripted, .explore] {
                let outcome = LabRunner.run(
                    lab, variant: Lab.Variant(kind: .validFix, name: "valid-generation-skip"), mode: mode,
                    settings: RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 45))
                let run = try XCTUnwrap(outcome.runs.first)
                XCTAssertTrue(
                    !run.detected && run.harnessError == nil,
                    "\(mode): \(TableReporter(colour: false).render([outcome]))")
            }
        }
    #endif

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
