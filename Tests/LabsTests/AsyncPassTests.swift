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

    /// The pass is for code of tasks: `racelab run` gives the fixed variants of the labs of tasks
    /// an async row, and in a lab of threads its fix that uses tasks (a Swift 6 fix); it refuses
    /// `--mode async` before any work for a lab with none, and for variants it is not for.
    func testThePassIsForCodeOfTasksOnly() throws {
        let tasksLabs = testLabs.labs.map(\.lab).filter(\.info.runsTasks).map(\.id).sorted()
        XCTAssertEqual(
            tasksLabs,
            [
                "actor-reentrancy", "continuation-misuse", "cooperative-cancellation", "task-lifetime",
                "unchecked-sendable"
            ])
        let taskFixes = testLabs.labs.map(\.lab).filter { !$0.info.runsTasks }.flatMap { lab in
            lab.variants.filter(\.runsTasks).map { "\(lab.id) \($0.name)" }
        }
        XCTAssertEqual(
            taskFixes.sorted(),
            [
                "cancellation fixed-task", "concurrent-perform fixed-task-group", "list-adder fixed-main-actor",
                "mandelbrot fixed-task", "off-main-dealloc fixed-main-actor", "photo-pipeline fixed-task",
                "property-strategies fixed-main-actor", "stale-results fixed-task-tag", "too-many-threads fixed-actor",
                "ui-off-main fixed-main-actor"
            ])
        for lab in testLabs.labs.map(\.lab) where !lab.info.runsTasks {
            for variant in lab.variants {
                XCTAssertEqual(
                    LabRunner.defaultModes(for: variant, in: lab.info).contains(.async),
                    variant.runsTasks && variant.kind != .broken, "\(lab.id) \(variant.name)")
            }
        }
        let refused = try LabsTestSupport.runRacelab(["run", "deadlock", "--mode", "async"])
        XCTAssertEqual(refused.status, 2, refused.stdout + refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains("the async pass is not for deadlock; it is for list-adder, ui-off-main"),
            refused.stderr)
        let notThatVariant = try LabsTestSupport.runRacelab([
            "run", "list-adder", "--mode", "async", "--variant", "broken"
        ])
        XCTAssertEqual(notThatVariant.status, 2, notThatVariant.stdout + notThatVariant.stderr)
        XCTAssertTrue(
            notThatVariant.stderr.contains("the async pass is for list-adder's fixed-main-actor only"),
            notThatVariant.stderr)
    }

    /// Every fix of every lab of tasks, and every fix of tasks in a lab of threads, is clean
    /// when its jobs run in the pass's orders (the survey, each single other choice, seeded
    /// priorities), and jobs did go through the scheduler: a fix said to run tasks does.
    func testEveryFixOfTasksIsCleanInEveryOrder() throws {
        try XCTSkipUnless(MissingCheck.facilitiesHere, "the job scheduler needs the Linux facilities")
        let labs = testLabs.labs.map(\.lab)
        let rows = labs.flatMap { lab in
            lab.variants.filter { $0.kind == .fixed && RunMode.async.applies(to: $0, in: lab.info) }.map { variant in
                LabRunner.Row(
                    lab: lab, variant: variant, mode: .async,
                    // One child a fix (make run gives each two more, of other seeds).
                    settings: RunSettings(executable: LabsTestSupport.child, runs: 1, seed: 4_049))
            }
        }
        XCTAssertGreaterThanOrEqual(rows.count, 20)
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
