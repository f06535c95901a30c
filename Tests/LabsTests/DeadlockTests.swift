import Foundation
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

/// deadlock: each scripted run first lets both lock orders happen one after the other (no
/// freeze, but TSan sees the inversion), then plays two stories in an order set by the seed:
/// the crossing transfers (they freeze: the watchdog's hang) and the statement that syncs onto
/// its own queue (libdispatch traps: a crash).
final class DeadlockTests: XCTestCase {
    /// The first seed from `start` whose first scripted iteration plays the crossing transfers
    /// first (`busyFirst`) or the statement first, as `DeadlockLab.play` decides.
    private func seed(from start: UInt64, busyFirst: Bool) -> UInt64 {
        var seed = start
        while (SeededRandom.hash(seed, 1) & 1 == 0) != busyFirst { seed += 1 }
        return seed
    }

    private func brokenRun(seed: UInt64, trace: Bool = false) throws -> (PlayableLab, RunVerdict) {
        let lab = try XCTUnwrap(testLabs.lab("deadlock"))
        var settings = RunSettings(executable: LabsTestSupport.child, runs: 1, seed: seed)
        settings.trace = trace
        let outcome = LabRunner.run(
            lab, variant: try XCTUnwrap(lab.variant(named: "broken")), mode: .scripted, settings: settings)
        return (lab, try XCTUnwrap(outcome.runs.first))
    }

    func testCrossingTransfersHangAfterTSanHadAlreadyReportedTheInversion() throws {
        let (lab, run) = try brokenRun(seed: seed(from: 500, busyFirst: true), trace: true)
        XCTAssertTrue(run.fired(.hang), "\(run.detections)")
        XCTAssertFalse(run.fired(.crash), "\(run.detections)")
        XCTAssertLessThan(run.elapsedSeconds, 60, "the lab's watchdog is 3 s (its clock runs slower on a busy machine)")

        let report = try XCTUnwrap(run.reports.first { $0.kind == .lockOrderInversion }, "\(run.reports.map(\.title))")
        let source = try String(contentsOf: lab.info.folder.appendingPathComponent("Broken.swift"), encoding: .utf8)
            .components(separatedBy: "\n")
        let lockLines = source.indices.filter { source[$0].contains("lock.lock()") }.map { "Broken.swift:\($0 + 1)" }
        let reported = Set(report.frames(under: lab.info.folder.path).compactMap(\.shortLocation))
        XCTAssertTrue(
            Set(lockLines.prefix(2)).isSubset(of: reported), "both lock() calls of transfer: \(reported), \(lockLines)")
        // The line the learner reads points at their transfer, not at the harness's layer the
        // lock call passes through on its way to TSan.
        let said = try XCTUnwrap(run.detections.first { $0.detector == .tsan }?.summary)
        XCTAssertTrue(said.contains("DeadlockBroken.transfer") && said.contains("Broken.swift:"), said)
        XCTAssertFalse(said.contains("CRaceLabSupport") || said.contains("LabCallInterposers"), said)

        // Where the watchdog found them: both crossing tellers stuck right after approval, each
        // holding one account's lock and waiting for the other's.
        XCTAssertEqual(run.hangPositions.filter { $0.checkpoint == "bank.approve" }.count, 2, "\(run.hangPositions)")

        // TSan spoke during the quiet morning, before the crossing transfers began.
        let events = try XCTUnwrap(run.trace?.events)
        let reportAt = try XCTUnwrap(events.firstIndex { $0.kind == .report })
        let crossingAt = try XCTUnwrap(events.firstIndex { $0.kind == .action && $0.text == "Alice pays Bob 20" })
        XCTAssertLessThan(reportAt, crossingAt)
    }

    #if RACELAB_CORPUS
        /// A statement printed by one async block on the audit queue may finish after its teller
        /// returned: the story counts its lines once things are quiet, whichever story comes first.
        func testStatementPrintedAfterItsTellerReturnedIsAccepted() throws {
            let lab = try XCTUnwrap(testLabs.lab("deadlock"))
            for busyFirst in [true, false] {
                let settings = RunSettings(
                    executable: LabsTestSupport.child, runs: 1, seed: seed(from: 700, busyFirst: busyFirst))
                let outcome = LabRunner.run(
                    lab, variant: Lab.Variant(kind: .validFix, name: "valid-statement-async"), mode: .scripted,
                    settings: settings)
                let run = try XCTUnwrap(outcome.runs.first)
                XCTAssertTrue(!run.detected && run.harnessError == nil, TableReporter(colour: false).render([outcome]))
            }
        }
    #endif

    func testStatementOnItsOwnQueueCrashesRatherThanHangs() throws {
        let (_, run) = try brokenRun(seed: seed(from: 500, busyFirst: false))
        XCTAssertTrue(run.fired(.crash), "\(run.detections)")
        XCTAssertFalse(run.fired(.hang), "libdispatch traps at once: \(run.detections)")
        // The crash names its cause (TSan prints the crashing stack) and the lab's own line.
        XCTAssertTrue(
            run.detections.contains {
                $0.detector == .crash
                    && $0.summary.contains("DispatchQueue.sync onto the queue it is already running on")
            },
            "\(run.detections)")
        XCTAssertTrue(
            run.detections.contains { $0.detector == .crash && $0.summary.contains(", at Broken.swift:") },
            "\(run.detections)")
        // The accounts never froze in this run, yet TSan caught their lock-order inversion.
        XCTAssertTrue(run.reports.contains { $0.kind == .lockOrderInversion }, "\(run.reports.map(\.title))")
    }
}
