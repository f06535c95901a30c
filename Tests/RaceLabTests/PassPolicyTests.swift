import Foundation
import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness

/// Every list and sum of passes is read from the passes' `PassPolicy` table: a test cannot add
/// a `RunMode` case, so these check that each derived thing is exactly the table's content (and,
/// for today's three passes, what it was before the table). scripts/check-new-pass.sh adds a
/// throwaway pass to a copy of the package and shows it needs nothing more than its case, its
/// policy line and its file.
final class PassPolicyTests: XCTestCase {
    let lab = PlayableLab(TinyLab.self, exercise: { _ in 1 }).lab

    func testTheListsOfPassesAreTheTable() {
        XCTAssertEqual(Grader.passes, RunMode.allCases.filter(\.policy.isGraded))
        XCTAssertEqual(Grader.passes, [.scripted, .explore, .stress], "the async pass is not graded yet")
        let tasks = LabInfo(
            id: "tasks", title: "", source: "", bug: "", invariants: [], expectedDetectors: [], runsTasks: true)
        let fixed = Lab.Variant(kind: .fixed, name: "fixed")
        let taskFix = Lab.Variant(kind: .fixed, name: "fixed-task", languageMode: .swift6, runsTasks: true)
        for info in [lab.info, tasks] {
            for variant in VariantKind.allCases.map({ Lab.Variant(kind: $0, name: $0.rawValue) }) + [taskFix] {
                let modes = RunMode.allCases.filter { $0.applies(to: variant, in: info) }
                let expected = variant.kind == .broken ? modes.filter(\.policy.showsBroken) : modes
                XCTAssertEqual(LabRunner.defaultModes(for: variant, in: info), expected, "\(variant)")
            }
            XCTAssertEqual(
                LabRunner.defaultModes(for: Lab.Variant(kind: .broken, name: "broken"), in: info), [.scripted],
                "broken: the scripted demo")
        }
        XCTAssertEqual(LabRunner.defaultModes(for: fixed, in: lab.info), [.scripted, .explore, .stress])
        XCTAssertEqual(LabRunner.defaultModes(for: fixed, in: tasks), [.scripted, .explore, .stress, .async])
        // In a lab of threads, the async pass is for a fix that runs tasks, and for no other variant.
        XCTAssertEqual(LabRunner.defaultModes(for: taskFix, in: lab.info), [.scripted, .explore, .stress, .async])
        XCTAssertFalse(RunMode.async.applies(to: lab))
        XCTAssertTrue(RunMode.async.applies(to: Lab(info: lab.info, variants: lab.variants + [taskFix])))
        XCTAssertEqual(RunMode.choices, "scripted|explore|stress|async")
        XCTAssertEqual(StudentFeedback.passNames, "scripted, explore and stress")
    }

    func testWhatTheHarnessAsksOfAPassIsItsPolicy() {
        let partial = LabInfo(
            id: "partial", title: "", source: "", bug: "", invariants: [], expectedDetectors: [],
            defaultIterations: [.stress: 60])
        for mode in RunMode.allCases {
            let policy = mode.policy
            XCTAssertEqual(mode.seedOffset, policy.seedOffset, "\(mode)")
            XCTAssertEqual(mode.isSystematic, policy.isSystematic, "\(mode)")
            XCTAssertEqual(mode.isCalibrated, policy.isCalibrated, "\(mode)")
            XCTAssertEqual(mode.storyMode, policy.storyMode, "\(mode)")
            XCTAssertEqual(mode.startOrder(sharded: false), policy.startOrder, "\(mode)")
            XCTAssertEqual(mode.startOrder(sharded: true), policy.shardedStartOrder, "\(mode)")
            XCTAssertEqual(mode.howItTries, policy.howItTries, "\(mode)")
            XCTAssertEqual(lab.info.defaultIterations[mode], policy.defaultIterations, "\(mode)")
            XCTAssertEqual(partial.defaultIterations[mode], mode == .stress ? 60 : policy.defaultIterations)
        }
        XCTAssertEqual(lab.info.defaultIterations, [.scripted: 3, .explore: 41, .stress: 200, .async: 30])
        // Each pass its own seed range, so no two children of one grade share a seed.
        XCTAssertEqual(Set(RunMode.allCases.map(\.seedOffset)).count, RunMode.allCases.count)
    }

    func testEachModeMakesItsOwnPass() {
        let made = RunMode.allCases.map { mode in
            let plan = ScenarioPlan(lab: "tiny", variant: "fixed", mode: mode, iterations: 3, seed: 1)
            return String(describing: type(of: plan.makePass()))
        }
        XCTAssertEqual(made, ["ScriptedPass", "ExplorePass", "StressPass", "AsyncPass"])
    }

    func testAGradesPointsAndChildrenAreTheTables() {
        let policy = GradingPolicy()
        for mode in Grader.passes {
            XCTAssertEqual(policy.runs(for: mode), mode.policy.gradeRuns, "\(mode)")
            XCTAssertEqual(policy.points(for: mode), mode.policy.gradePoints, "\(mode)")
        }
        let shards = { (mode: RunMode) in mode.isSystematic ? LabRunner.maxExploreShards : 1 }
        XCTAssertEqual(policy.pointsPerLab, Grader.passes.map(\.policy.gradePoints).reduce(0, +))
        XCTAssertEqual(policy.childrenPerLab, Grader.passes.map { $0.policy.gradeRuns * shards($0) }.reduce(0, +))
        XCTAssertEqual(policy.pointsPerLab, 10)
        XCTAssertEqual(policy.childrenPerLab, 15)
        var partial = policy
        partial.partialCredit = true
        XCTAssertEqual(ClassShardMerge.words(policy, partial), "all or nothing")
        XCTAssertTrue(ClassShardMerge.words(policy, policy).hasPrefix("3/1/4 runs, 10 points"))
        // A lab's grade has one pass per pass of the table, each worth its points.
        let stress = StressPlan.make(lab, calibration: nil, policy: policy)
        let grade = Grader(executable: nil, seed: 1).notGraded(
            lab, variant: lab.variants[0], stress: stress, status: .error, reason: "a test")
        XCTAssertEqual(grade.passes.map(\.mode), Grader.passes)
        XCTAssertEqual(grade.passes.map(\.maxScore), Grader.passes.map(\.policy.gradePoints))
        XCTAssertEqual(grade.passes.map(\.runs), [3, 1, stress.runs])
        XCTAssertEqual(grade.maxScore, policy.pointsPerLab)
    }

    func testThePolicysJSONIsTheOneItsStoredFieldsWrote() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var before = PolicyBeforePassTable()
        var policy = GradingPolicy()
        XCTAssertEqual(
            String(decoding: try encoder.encode(policy), as: UTF8.self),
            String(decoding: try encoder.encode(before), as: UTF8.self))
        // Each field is its pass's.
        before.exploreRuns = 2
        before.stressPoints = 5
        before.partialCredit = true
        policy.passRuns[.explore] = 2
        policy.passPoints[.stress] = 5
        policy.partialCredit = true
        let json = try encoder.encode(before)
        XCTAssertEqual(try encoder.encode(policy), json)
        XCTAssertEqual(try JSONDecoder().decode(GradingPolicy.self, from: json), policy)
        // Every field must be there, as the synthesized coding demanded.
        var fields = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
        fields["exploreRuns"] = nil
        let short = try JSONSerialization.data(withJSONObject: fields)
        XCTAssertThrowsError(try JSONDecoder().decode(GradingPolicy.self, from: short))
    }
}

/// GradingPolicy as it was stored before its runs and points were keyed by pass: the JSON that
/// grade reports and class records carry, and other tools read.
private struct PolicyBeforePassTable: Codable {
    var scriptedRuns = 3
    var exploreRuns = 1
    var stressRuns = 4
    var stressFloorRuns = 2
    var stressFloorIterations = 200
    var scriptedPoints = 4.0
    var explorePoints = 3.0
    var stressPoints = 3.0
    var partialCredit = false
    var target = 1e-6
    var maxStressIterationsPerRun = 20_000
}
