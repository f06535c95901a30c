import Foundation
import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness

/// "Same code, same verdict": the options of `racelab bench corpus --seeds K --load N,M`, the
/// flips found across its conditions, `bench agreement`'s table, and the busy loops.
final class CorpusStabilityTests: XCTestCase {
    let spec = CommandSpec(
        name: "bench", arguments: "corpus", positionals: 1...1, summary: "grade the corpus",
        options: [.value("seed", "S", "base seed"), .value("seeds", "K", "seeds"), .value("load", "N", "busy loops")])

    func grid(_ arguments: [String]) throws -> CorpusStability.Grid {
        try CorpusStability.Grid(ParsedArguments(["corpus"] + arguments, spec: spec), randomSeed: 99)
    }

    // MARK: Options

    func testDefaultsAreOneSeedAndNoLoad() throws {
        let plain = try grid([])
        XCTAssertEqual(plain, CorpusStability.Grid(seeds: [99], loads: [0]))
        XCTAssertFalse(plain.isGrid)
        XCTAssertEqual(plain.conditions, [CorpusStability.Condition(seed: 99, load: 0)])
    }

    func testSeedsAreTenThousandApartAndLoadsAreOuter() throws {
        let chosen = try grid(["--seed", "2026", "--seeds", "3", "--load", "0, 3"])
        XCTAssertEqual(chosen.seeds, [2026, 12026, 22026])
        XCTAssertEqual(chosen.loads, [0, 3])
        XCTAssertTrue(chosen.isGrid)
        XCTAssertEqual(
            chosen.conditions.map(\.name),
            [
                "seed 2026, load 0", "seed 12026, load 0", "seed 22026, load 0",
                "seed 2026, load 3", "seed 12026, load 3", "seed 22026, load 3"
            ])
        XCTAssertEqual(try grid(["--load", "2"]).loads, [2])
        // The stride wraps rather than traps at the top of the seed range.
        XCTAssertEqual(try grid(["--seed", "\(UInt64.max)", "--seeds", "2"]).seeds, [UInt64.max, 9_999])
    }

    func testBadValuesSayWhatIsValid() throws {
        let seeds = "--seeds must be a whole number from 1 to 100, not "
        for (value, shown) in [("0", "'0'"), ("-2", "'-2'"), ("x", "'x'"), ("101", "'101'"), ("1.5", "'1.5'")] {
            XCTAssertThrowsError(try grid(["--seeds", value])) {
                XCTAssertEqual(($0 as? UsageError)?.message, seeds + shown)
            }
        }
        let load =
            "--load must be a whole number of busy loops from 0 to 64, or a comma-separated list of them, each once (e.g. --load 0,3), not "
        for value in ["-1", "x", "65", "0,,3", "0,3,", ",", "", "3,3", "0;3", "two"] {
            XCTAssertThrowsError(try grid(["--load", value]), value) {
                XCTAssertEqual(($0 as? UsageError)?.message, load + "'\(value)'")
                XCTAssertFalse(($0 as? UsageError)?.message.contains("\n") ?? true)
            }
        }
        XCTAssertThrowsError(try grid(["--seed", "-1"])) {
            XCTAssertEqual(
                ($0 as? UsageError)?.message, "--seed must be a whole number from 0 to \(UInt64.max), not '-1'")
        }
    }

    // MARK: Flips

    func entry(_ lab: String, _ variant: String, _ kind: VariantKind, score: Double, status: LabGrade.Status? = nil)
        -> CorpusBenchmark.Entry
    {
        CorpusBenchmark.Entry(
            lab: lab, variant: variant, kind: kind, about: "\(variant) does this", score: score, maxScore: 10,
            status: status ?? (score == 10 ? .passed : score == 0 ? .failed : .partial), message: "", seconds: 1)
    }

    /// list-adder: a valid fix that always passes, one that loses marks under load; a wrong fix
    /// always caught. cancellation: a wrong fix that one seed lets through.
    func runs() -> [CorpusStability.Run] {
        func run(_ seed: UInt64, _ load: Int, lossy: Double, leaky: Double) -> CorpusStability.Run {
            CorpusStability.Run(
                condition: .init(seed: seed, load: load),
                entries: [
                    entry("list-adder", "valid-serial-queue", .validFix, score: 10),
                    entry("list-adder", "valid-lock", .validFix, score: lossy),
                    entry("list-adder", "wrong-lock-writes", .wrongFix, score: 0),
                    entry("cancellation", "wrong-every-third", .wrongFix, score: leaky)
                ], seconds: 5)
        }
        return [
            run(1, 0, lossy: 10, leaky: 0), run(10_001, 0, lossy: 10, leaky: 10), run(1, 3, lossy: 6, leaky: 0),
            run(10_001, 3, lossy: 10, leaky: 0)
        ]
    }

    func testAFileFlipsWhenFullMarksComeAndGo() {
        let flips = CorpusStability.flips(runs())
        XCTAssertEqual(flips.map(\.variant), ["valid-lock", "wrong-every-third"])
        let lossy = flips[0]
        XCTAssertEqual(lossy.lab, "list-adder")
        XCTAssertEqual(lossy.kind, .validFix)
        XCTAssertEqual(lossy.verdicts.map(\.passed), [true, true, false, true])
        XCTAssertEqual(lossy.verdicts.map(\.load), [0, 0, 3, 3])
        XCTAssertEqual(lossy.verdicts.map(\.seed), [1, 10_001, 1, 10_001])
        XCTAssertEqual(lossy.passes, 3)
        XCTAssertEqual(lossy.verdicts[2].text, "seed 1 load 3: FAIL 6/10 (partial)")
        // A wrong fix at full marks once: it passed there (a false accept that comes and goes).
        XCTAssertEqual(flips[1].verdicts.map(\.passed), [false, true, false, false])
        XCTAssertEqual(
            CorpusStability.perLab(runs(), flips: flips),
            [
                .init(lab: "list-adder", files: 3, flips: 1), .init(lab: "cancellation", files: 1, flips: 1)
            ])
    }

    func testSameVerdictIsNoFlipEvenWithOtherPoints() {
        // Partial marks that change (3 then 7) are still "not full marks" both times.
        let runs = [3.0, 7.0, 0.0].enumerated().map { index, score in
            CorpusStability.Run(
                condition: .init(seed: UInt64(index), load: 0),
                entries: [entry("deadlock", "wrong-try-lock", .wrongFix, score: score)], seconds: 1)
        }
        XCTAssertEqual(CorpusStability.flips(runs), [])
        XCTAssertEqual(CorpusStability.flips([]), [])
        XCTAssertEqual(CorpusStability.flips(Array(runs.prefix(1))), [], "one condition cannot flip")
        // A file graded under only one condition is compared nowhere.
        var partial = runs
        partial[1].entries.append(entry("deadlock", "valid-order", .validFix, score: 10))
        XCTAssertEqual(CorpusStability.flips(partial), [])
    }

    func testFlipTableAndJSON() throws {
        let table = CorpusStability.flipTable(runs(), flips: CorpusStability.flips(runs()))
        XCTAssertTrue(
            table.contains(
                "across 4 condition(s): seed 1, load 0; seed 10001, load 0; seed 1, load 3; seed 10001, load 3"), table)
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("list-adder") && $0.hasSuffix("3      1") }, table)
        XCTAssertTrue(lines.contains { $0.hasPrefix("TOTAL") && $0.hasSuffix("4      2") }, table)
        XCTAssertTrue(
            lines.contains("FLIP list-adder valid-lock (valid-fix: valid-lock does this): full marks in 3 of 4"), table)
        XCTAssertTrue(lines.contains("  seed 10001 load 0: PASS 10/10 (passed)"), table)

        let report = CorpusStability.Report(
            grid: .init(seeds: [1, 10_001], loads: [0, 3]), load: BusyLoad.unit, runs: runs(), seconds: 20)
        let data = try JSONEncoder().encode(report)
        let decoded = try JSONDecoder().decode(CorpusStability.Report.self, from: data)
        XCTAssertEqual(decoded.flips, report.flips)
        XCTAssertEqual(decoded.flips.count, 2)
        XCTAssertEqual(decoded.flipsPerLab.map(\.flips), [1, 1])
        XCTAssertEqual(decoded.runs.count, 4)
        XCTAssertEqual(decoded.loads, [0, 3])
    }

    // MARK: Agreement

    func testAgreementTableNamesEachDisagreement() {
        func side(_ seed: UInt64, _ score: Double, _ message: String) -> GraderAgreement.Side {
            .init(
                seed: seed, passed: score == 10, score: score, maxScore: 10, status: score == 10 ? .passed : .failed,
                message: message)
        }
        let rows = [
            GraderAgreement.Row(
                lab: "list-adder", variant: "valid-lock", kind: .validFix, about: "a lock", check: side(5, 10, "ok"),
                grade: side(1_000_005, 10, "ok"), seconds: 2),
            GraderAgreement.Row(
                lab: "list-adder", variant: "valid-queue", kind: .validFix, about: "a queue", check: side(5, 10, "ok"),
                grade: side(1_000_005, 0, "stress run 3: the total was wrong"), seconds: 3)
        ]
        XCTAssertEqual(rows.map(\.agree), [true, false])
        let table = GraderAgreement.table(rows, seconds: 6)
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("list-adder") && $0.contains("2      2           1           1         5") },
            table)
        XCTAssertTrue(lines.contains("Disagreements: 1 (goal 0). Wall time: 6 s."), table)
        XCTAssertTrue(lines.contains("DISAGREE list-adder valid-queue (valid-fix: a queue)"), table)
        XCTAssertTrue(lines.contains("  check: PASS 10/10 (passed, seed 5)"), table)
        XCTAssertTrue(lines.contains("  grade: FAIL 0/10 (failed, seed 1000005)"), table)
        XCTAssertTrue(lines.contains("  grade said: stress run 3: the total was wrong"), table)
        XCTAssertTrue(GraderAgreement.table(Array(rows.prefix(1)), seconds: 2).contains("Disagreements: 0 (goal 0)."))
    }

    /// bench agreement sets the two graders up as the commands do.
    func testCheckAndGradeGradersAsTheCommandsSetThemUp() {
        let program = URL(fileURLWithPath: "/bin/false")
        let check = Grader.forCheck(
            executable: program, seed: 5, programName: "racelab", root: nil, jobs: nil, environment: [:])
        XCTAssertEqual(check.jobs, min(max(ChildPool.defaultJobs(environment: [:]), check.policy.childrenPerLab), 64))
        XCTAssertEqual(
            Grader.forCheck(
                executable: program, seed: 5, programName: "racelab", root: nil, jobs: nil,
                environment: ["RACELAB_JOBS": "3"]
            ).jobs, 3)
        XCTAssertEqual(
            Grader.forCheck(executable: program, seed: 5, programName: "racelab", root: nil, jobs: 7, environment: [:])
                .jobs, 7)
        let grade = Grader.forGrade(
            executable: program, seed: 5 + GraderAgreement.gradeSeedOffset, programName: "racelab", root: nil,
            jobs: nil, environment: [:])
        XCTAssertEqual(grade.jobs, ChildPool.defaultJobs(environment: [:]))
        XCTAssertEqual(grade.seed, 1_000_005)
        XCTAssertFalse(grade.policy.partialCredit)
        XCTAssertTrue(
            Grader.forGrade(
                executable: program, partialCredit: true, seed: 5, programName: "racelab", root: nil, jobs: nil,
                environment: [:]
            ).policy.partialCredit)
    }

    /// Each load once, outer; every seed graded beside it, in order; each grading heard as it ends.
    func testTheGridIsGradedLoadByLoad() throws {
        var heard: [String] = []
        let runs = try CorpusStability.run(
            .init(seeds: [1, 10_001], loads: [0, 1]), onLoad: { heard.append("load \($0)") },
            grade: { condition in
                heard.append(condition.name)
                return [self.entry("list-adder", "valid-lock", .validFix, score: 10)]
            }, onRun: { heard.append("graded \($0.condition.name)") })
        XCTAssertEqual(
            heard,
            [
                "load 0", "seed 1, load 0", "graded seed 1, load 0", "seed 10001, load 0", "graded seed 10001, load 0",
                "load 1", "seed 1, load 1", "graded seed 1, load 1", "seed 10001, load 1", "graded seed 10001, load 1"
            ])
        XCTAssertEqual(
            runs.map(\.condition.name), ["seed 1, load 0", "seed 10001, load 0", "seed 1, load 1", "seed 10001, load 1"]
        )
        XCTAssertEqual(runs.map(\.entries.count), [1, 1, 1, 1])
    }

    // MARK: Busy loops

    /// The loops are processes that run until stopped, then are gone (killed and reaped).
    func testBusyLoopsStartAndStop() throws {
        XCTAssertEqual(try BusyLoad(count: 0).processes, [])
        let load = try BusyLoad(count: 2)
        let pids = load.processes
        XCTAssertEqual(pids.count, 2)
        for pid in pids { XCTAssertEqual(kill(pid, 0), 0, "busy loop \(pid) is running") }
        load.stop()
        XCTAssertEqual(load.processes, [])
        for pid in pids {
            XCTAssertEqual(kill(pid, 0), -1, "busy loop \(pid) is gone")
            XCTAssertEqual(errno, ESRCH)
        }
        load.stop()
        XCTAssertTrue(BusyLoad.describe(3, cores: 2).hasPrefix("3 busy-loop process(es) beside the grader"))
        XCTAssertTrue(BusyLoad.describe(0, cores: 2).hasPrefix("no load"))
    }
}
