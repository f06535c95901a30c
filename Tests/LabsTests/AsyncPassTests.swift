import Foundation
import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabHarness
import RaceLabReports
import XCTest

/// The async pass: Swift concurrency's jobs run one at a time, in an order chosen by seed
/// (JobScheduler.c). One seed, one order; the labs of tasks only; their fixes clean in it.
final class AsyncPassTests: XCTestCase {
    private func jobs(_ verdict: RunVerdict) -> [String] {
        (verdict.trace?.events ?? []).filter { $0.kind == .job }.map(\.text)
    }

    private func run(_ lab: Lab, _ variant: String, seed: UInt64, iterations: Int) throws -> RunVerdict {
        var settings = RunSettings(executable: LabsTestSupport.child, iterations: iterations, runs: 1, seed: seed)
        settings.trace = true
        let plan = ScenarioPlan(
            lab: lab.id, variant: variant, mode: .async, iterations: iterations, seed: seed, stopAtFirstDetection: false
        )
        return LabRunner.runOnce(plan, kind: .fixed, stallTimeout: lab.info.watchdogSeconds, settings: settings)
    }

    /// Two children of one seed run the jobs of their last iteration in the same order, job for
    /// job; another seed orders them otherwise (PCT's priorities are the seed's).
    func testOneSeedIsOneOrderOfJobs() throws {
        try XCTSkipUnless(MissingCheck.facilitiesHere, "the job scheduler needs the Linux facilities")
        let lab = try XCTUnwrap(testLabs.lab("actor-reentrancy")).lab
        let variant = try XCTUnwrap(lab.variants.first { $0.kind == .fixed }).name
        // Iteration 12: past the survey and the single moves, seeded priorities.
        let first = try run(lab, variant, seed: 31, iterations: 12)
        let again = try run(lab, variant, seed: 31, iterations: 12)
        XCTAssertNil(first.harnessError, "\(first)")
        XCTAssertGreaterThan(jobs(first).count, 5, "the story's jobs went through the scheduler")
        XCTAssertEqual(jobs(first), jobs(again), "seed 31 twice, the same order")
        var others: [[String]] = []
        for seed: UInt64 in [32, 33, 34] { others.append(jobs(try run(lab, variant, seed: seed, iterations: 12))) }
        XCTAssertTrue(others.contains { $0 != jobs(first) }, "other seeds, other orders: \(others)")
    }

    /// The pass is for labs of tasks: `racelab run` gives their fixed variants an async row, a
    /// thread lab none, and refuses `--mode async` for a thread lab before any work.
    func testThePassIsForTheLabsOfTasksOnly() throws {
        let tasksLabs = testLabs.labs.map(\.lab).filter(\.info.runsTasks).map(\.id).sorted()
        XCTAssertEqual(
            tasksLabs,
            [
                "actor-reentrancy", "continuation-misuse", "cooperative-cancellation", "task-lifetime",
                "unchecked-sendable"
            ])
        let refused = try LabsTestSupport.runRacelab(["run", "list-adder", "--mode", "async"])
        XCTAssertEqual(refused.status, 2, refused.stdout + refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains("the async pass is not for list-adder; it is for actor-reentrancy"), refused.stderr)
    }

    /// Every fix of every lab of tasks is clean when its jobs run in the pass's orders (the
    /// survey, each single other choice, seeded priorities), and the broken variants are run
    /// through it too: their verdicts are measured, not required here (the scripted pass is
    /// what catches them every time).
    func testEveryFixOfALabOfTasksIsCleanInEveryOrder() throws {
        try XCTSkipUnless(MissingCheck.facilitiesHere, "the job scheduler needs the Linux facilities")
        let labs = testLabs.labs.map(\.lab).filter(\.info.runsTasks)
        let rows = labs.flatMap { lab in
            lab.variants.filter { $0.kind == .fixed }.map { variant in
                LabRunner.Row(
                    lab: lab, variant: variant, mode: .async,
                    settings: RunSettings(executable: LabsTestSupport.child, runs: 2, seed: 4_049))
            }
        }
        XCTAssertGreaterThanOrEqual(rows.count, 10)
        let outcomes = LabRunner.run(rows, jobs: ChildPool.defaultJobs())
        let table = TableReporter(colour: false).render(outcomes)
        for outcome in outcomes {
            XCTAssertTrue(
                outcome.runs.allSatisfy { !$0.detected && $0.harnessError == nil },
                "\(outcome.lab) \(outcome.variant):\n\(table)")
            XCTAssertTrue(
                outcome.runs.allSatisfy { ($0.metrics["jobs run"] ?? 0) > 0 },
                "jobs went through the scheduler:\n\(table)")
        }
    }
}
