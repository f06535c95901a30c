import Foundation
import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A lab that only exists for these tests: its folder is this file's folder.
enum TinyLab: LabScenario {
    static let info = LabInfo(
        id: "tiny", title: "A tiny lab", source: "tests", bug: "the counter is read while it is written",
        invariants: ["the count is right"], expectedDetectors: [.tsan, .invariant])
    static var variants: [LabVariant<Void, Int>] { [LabVariant(.broken) { _ in 0 }] }
    static func play(_ variant: LabVariant<Void, Int>, in run: ScenarioRun) {}
}

final class GraderTests: XCTestCase {
    let lab = PlayableLab(TinyLab.self, exercise: { _ in 1 }).lab
    var folder: String { lab.info.folder.path }
    var grader: Grader {
        Grader(
            executable: URL(fileURLWithPath: "/bin/false"), seed: 40, root: lab.info.folder.deletingLastPathComponent())
    }

    // MARK: Calibration

    func calibration(_ runs: [Int], detected: [Bool]? = nil) -> StressCalibration {
        StressCalibration(
            lab: "tiny", variant: "broken", sourceDigest: nil, seed: 1, iterationCap: 2000, iterationsRun: runs,
            detected: detected ?? runs.map { _ in true }, harnessErrors: 0, scriptedRuns: 10, scriptedCaught: 10,
            measuredAt: "now")
    }

    func testGeometricEstimateAndItsLowerBound() {
        // 40 detections in 463 iterations (a real stale-results measurement).
        let measured = calibration(Array(repeating: 11, count: 39) + [34])
        XCTAssertEqual(measured.trials, 463)
        XCTAssertEqual(measured.perIteration, 40.0 / 463, accuracy: 1e-12)
        // Exact one-sided 95% Poisson bound: chi2(0.05, 80) / 2 = 30.196 -> 0.0652.
        XCTAssertEqual(measured.perIterationLowerBound, 30.196 / 463, accuracy: 0.0002)
        let needed = measured.iterationsNeeded(target: 1e-6)!
        XCTAssertEqual(needed, Int((log(1e-6) / log(1 - measured.perIterationLowerBound)).rounded(.up)))
        let chance = measured.log10ChanceUnfixedPasses(iterations: needed)
        XCTAssertLessThanOrEqual(chance.upperBound, -6)
        XCTAssertLessThan(chance.estimate, chance.upperBound)
        XCTAssertEqual(measured.longestToDetection, 34)
    }

    func testNeverCaughtMeansTheStressPassCannotTell() {
        let never = calibration([2000, 2000], detected: [false, false])
        XCTAssertNil(never.iterationsNeeded(target: 1e-6))
        XCTAssertEqual(never.log10ChanceUnfixedPasses(iterations: 400).upperBound, 0)
        let plan = StressPlan.make(lab, calibration: never, policy: GradingPolicy())
        XCTAssertEqual(plan.iterationsPerRun * plan.runs, 400, "the floor: twice the lab's default")
        XCTAssertTrue(plan.basis.contains("never caught"))
        XCTAssertEqual(plan.chanceText, "at most 1 (estimate 1)")
    }

    func testStressPlanUsesTheLabDefaultAsAFloorAndGrowsForRareBugs() {
        let policy = GradingPolicy()
        // The floor: twice the lab's default in all, in four shorter runs side by side.
        let easy = StressPlan.make(lab, calibration: calibration([1, 2, 1, 1]), policy: policy)
        XCTAssertEqual(easy.runs, 4)
        XCTAssertEqual(easy.iterationsPerRun, 100)
        // A bug caught about once in 100 iterations needs more than 400 in all.
        let rare = StressPlan.make(lab, calibration: calibration(Array(repeating: 100, count: 40)), policy: policy)
        XCTAssertGreaterThan(rare.iterationsPerRun * rare.runs, 400)
        XCTAssertEqual(rare.iterationsPerRun, (rare.iterationsNeeded! + 3) / 4)
        XCTAssertLessThanOrEqual(rare.log10ChanceUpperBound!, -6)
        XCTAssertEqual(StressPlan.make(lab, calibration: nil, policy: policy).chanceText, "not measured")
    }

    func testChanceFormatting() {
        XCTAssertEqual(StressCalibration.formatChance(log10: -11.5), "3e-12")
        XCTAssertEqual(StressCalibration.formatChance(log10: -400), "< 1e-300")
        XCTAssertEqual(StressCalibration.formatChance(log10: -.infinity), "< 1e-300")
        XCTAssertEqual(StressCalibration.formatChance(log10: 0), "1")
    }

    // MARK: Judging runs

    func frame(_ file: String, _ line: Int, _ function: String) -> TSanReport.Frame {
        TSanReport.Frame(
            function: function, demangled: function, file: file, line: line, column: nil, module: "racelab")
    }

    func racyRun(seed: UInt64) -> RunVerdict {
        let report = TSanReport(
            kind: .swiftAccessRace, title: "Swift access race",
            accesses: [
                TSanReport.Access(
                    description: "Modifying access of Swift variable", isWrite: true, isPrevious: false, size: 8,
                    thread: "main thread", frames: [frame(folder + "/Exercise.swift", 0, "TinyExercise.reset()")]),
                TSanReport.Access(
                    description: "Previous read of size 8", isWrite: false, isPrevious: true, size: 8,
                    thread: "thread T2",
                    frames: [
                        frame("/x/Sources/LabKit/Checkpoint.swift", 9, "hit"),
                        frame(folder + "/Exercise.swift", 39, "closure #1 in TinyExercise.count()")
                    ])
            ], location: nil, locationFrames: [], threads: [], lockCycle: nil, summary: nil, truncated: false, text: "")
        return RunVerdict(
            lab: "tiny", variant: "exercise", kind: .exercise, mode: .scripted, seed: seed, iterationsRequested: 3,
            iterationsRun: 1,
            detections: [
                Detection(detector: .tsan, iteration: 1, seconds: 0.1, summary: ReportSummary.oneLine(report)),
                Detection(detector: .invariant, iteration: 1, seconds: nil, summary: "count is 3, not 4")
            ],
            reports: [report],
            failures: [
                InvariantFailure(iteration: 1, message: "count is 3, not 4", file: folder + "/Scenario.swift", line: 20)
            ],
            hangPositions: [], harnessError: nil, notes: [], metrics: [:], elapsedSeconds: 0.5,
            reproduce: "racelab run tiny --variant exercise --mode scripted --iterations 3 --seed \(seed)", trace: nil)
    }

    /// A report with no memory accesses (here TSan's real "use of an invalid mutex") still gets a
    /// line after its kind: a learner saw "ThreadSanitizer found a use of an invalid mutex:" and
    /// nothing else.
    func testAReportWithoutAccessesStillSaysWhatAndWhere() throws {
        let report = try XCTUnwrap(TSanReportParser.parse(try Fixture.text("mutex-invalid.log")).first)
        XCTAssertEqual(report.accesses, [], "the premise: this kind has no accesses")
        var run = cleanRun(seed: 7, mode: .scripted)
        run.detections = [
            Detection(detector: .tsan, iteration: 1, seconds: 0.1, summary: ReportSummary.oneLine(report))
        ]
        run.reports = [report]
        let outcome = VariantOutcome(lab: "tiny", variant: "exercise", kind: .exercise, mode: .scripted, runs: [run])
        let lines = grader.pass(outcome, lab: lab, runs: 1, iterations: 3, points: 5).problems[0].lines
        XCTAssertEqual(lines.first, "ThreadSanitizer found a use of an invalid mutex:")
        XCTAssertEqual(lines.count, 2, "\(lines)")
        XCTAssertEqual(lines.last, "  " + ReportSummary.oneLine(report))
        XCTAssertGreaterThan(lines.last?.count ?? 0, 10, "\(lines)")
    }

    func cleanRun(seed: UInt64, mode: RunMode) -> RunVerdict {
        RunVerdict(
            lab: "tiny", variant: "exercise", kind: .exercise, mode: mode, seed: seed, iterationsRequested: 3,
            iterationsRun: 3,
            detections: [], reports: [], failures: [], hangPositions: [], harnessError: nil, notes: [], metrics: [:],
            elapsedSeconds: 0.5, reproduce: "r", trace: nil)
    }

    func testAFailingPassNamesTheDetectorTheStudentsLinesTheSeedAndTheCommand() {
        let outcome = VariantOutcome(
            lab: "tiny", variant: "exercise", kind: .exercise, mode: .scripted,
            runs: [racyRun(seed: 40), cleanRun(seed: 41, mode: .scripted), racyRun(seed: 42)])
        let pass = grader.pass(outcome, lab: lab, runs: 3, iterations: 3, points: 5)
        XCTAssertEqual(pass.status, .failed)
        XCTAssertEqual(pass.score, 0)
        XCTAssertEqual(pass.summary, "a bug was caught in 2 of 3 runs")
        XCTAssertEqual(pass.problems.map(\.seed), [40, 42])
        let lines = pass.problems[0].lines
        XCTAssertEqual(
            lines,
            [
                "ThreadSanitizer found a Swift access race:",
                "  your code in Exercise.swift: main thread write in TinyExercise.reset()",
                "  your line Exercise.swift:39: thread T2 read in closure #1 in TinyExercise.count()",
                "a lab check failed: count is 3, not 4 (checked at Scenario.swift:20)"
            ])
        XCTAssertEqual(
            pass.problems[0].reproduce, "racelab run tiny --variant exercise --mode scripted --iterations 3 --seed 40")
        XCTAssertEqual(pass.problems[1].lines.count, 1, "later failures: one line each")

        let stress = VariantOutcome(
            lab: "tiny", variant: "exercise", kind: .exercise, mode: .stress,
            runs: [cleanRun(seed: 1040, mode: .stress), cleanRun(seed: 1041, mode: .stress)])
        let passes = [pass, grader.pass(stress, lab: lab, runs: 3, iterations: 200, points: 5)]
        let plan = StressPlan.make(lab, calibration: nil, policy: GradingPolicy())
        // One verdict per lab: the clean stress pass earns nothing while the scripted pass caught the bug.
        let grade = grader.labGrade(lab, variant: lab.variants[1], passes: passes, stress: plan)
        XCTAssertEqual(grade.status, .failed)
        XCTAssertEqual(grade.score, 0)
        XCTAssertEqual(grade.passes.map(\.score), [0, 0])
        // The headline names the check that failed; the lab's stock bug comes after it.
        XCTAssertTrue(
            grade.message.hasPrefix(
                "tiny: 0/10, not fixed yet: a lab check failed: count is 3, not 4 (seen in the scripted pass of "),
            grade.message)
        XCTAssertTrue(
            grade.message.contains("The lab's bug, for reference: the counter is read while it is written."),
            grade.message)
        XCTAssertTrue(
            grade.message.contains("lab tiny, variant exercise, seed 40; reproduce: racelab run tiny"), grade.message)
        // Partial credit only when the instructor asks for it, and then the report says so.
        var policy = GradingPolicy()
        policy.partialCredit = true
        let partial = Grader(executable: URL(fileURLWithPath: "/bin/false"), policy: policy, seed: 40).labGrade(
            lab, variant: lab.variants[1], passes: passes, stress: plan)
        XCTAssertEqual(partial.status, .partial)
        XCTAssertEqual(partial.score, 5)
        XCTAssertTrue(partial.message.contains("Partial credit (an instructor's choice)"), partial.message)
    }

    /// A race TSan tied to the student's line makes the headline point at it.
    func testATSanHeadlineNamesTheStudentsLine() {
        var run = racyRun(seed: 3)
        run.failures = []
        run.detections = run.detections.filter { $0.detector == .tsan }
        XCTAssertEqual(
            grader.headline(run, lab: lab), "ThreadSanitizer saw a Swift access race at your line Exercise.swift:39")
    }

    /// A hang's headline names every way a program stops making progress, a thread that spins
    /// or polls for ever among them, not only a deadlock.
    func testAHangHeadlineNamesAThreadThatNeverStopsToo() {
        var run = racyRun(seed: 3)
        run.failures = []
        run.detections = [
            Detection(
                detector: .hang, iteration: 1, seconds: 10,
                summary: "no progress, killed by the watchdog; at the kill: main thread running")
        ]
        XCTAssertEqual(
            grader.headline(run, lab: lab),
            "the program stopped making progress (a deadlock, a lost wake-up, or a thread that never stops or waits): "
                + "no progress, killed by the watchdog; at the kill: main thread running")
    }

    /// atos (Apple's TSan) names files by base name: an exercise's is still the student's.
    func testAnExerciseIsKnownByItsBaseNameToo() {
        XCTAssertTrue(grader.isExercise("Exercise.swift", lab: lab))
        XCTAssertTrue(grader.isExercise(lab.info.folder.appendingPathComponent("ExerciseHelpers.swift").path, lab: lab))
        XCTAssertFalse(grader.isExercise("Scenario.swift", lab: lab))
        XCTAssertFalse(
            grader.isExercise("/elsewhere/Exercise.swift", lab: lab), "a full path elsewhere is not this lab's")
    }

    func testAForgedResultIsTamperingAndScoresNothing() {
        var forged = cleanRun(seed: 7, mode: .scripted)
        forged.markForged("the result channel carried 2 result lines; the harness sends exactly one")
        let outcome = VariantOutcome(lab: "tiny", variant: "exercise", kind: .exercise, mode: .scripted, runs: [forged])
        let pass = grader.pass(outcome, lab: lab, runs: 3, iterations: 3, points: 5)
        XCTAssertEqual(pass.status, .forged)
        XCTAssertEqual(pass.problems.first?.detectors, ["forged"])
        let clean = grader.pass(
            VariantOutcome(
                lab: "tiny", variant: "exercise", kind: .exercise, mode: .stress,
                runs: [cleanRun(seed: 8, mode: .stress)]), lab: lab, runs: 1, iterations: 200, points: 5)
        let grade = grader.labGrade(
            lab, variant: lab.variants[1], passes: [pass, clean],
            stress: StressPlan.make(lab, calibration: nil, policy: GradingPolicy()))
        XCTAssertEqual(grade.status, .tampered)
        XCTAssertEqual(grade.score, 0, "a forged run: the lab scores nothing, clean stress pass or not")
    }

    /// A run killed from outside still counts for its student, says so, and its grade is not
    /// reused for anyone else with the same files.
    func testAGradeDisturbedFromOutsideIsNotReused() {
        var killed = cleanRun(seed: 7, mode: .scripted)
        killed.detections = [Detection(detector: .crash, iteration: 1, seconds: 1, summary: "died on SIGKILL")]
        killed.interference = "the child was killed by a SIGKILL the harness did not send"
        let pass = grader.pass(
            VariantOutcome(lab: "tiny", variant: "exercise", kind: .exercise, mode: .scripted, runs: [killed]),
            lab: lab, runs: 1, iterations: 3, points: 5)
        XCTAssertEqual(pass.status, .failed)
        XCTAssertNotNil(pass.interference)
        XCTAssertTrue(pass.problems.first?.lines.contains { $0.contains("graded again") } == true, "\(pass.problems)")
        let plan = StressPlan.make(lab, calibration: nil, policy: GradingPolicy())
        let disturbed = grader.labGrade(lab, variant: lab.variants[1], passes: [pass], stress: plan)
        XCTAssertFalse(disturbed.undisturbed)
        let memo = GradeMemo()
        let key = memo.key(lab: "tiny", files: [("Labs/Tiny/Exercise.swift", Data("x".utf8))])
        memo.remember(disturbed, for: key)
        XCTAssertNil(memo.grade(for: key), "a disturbed grade is worked out afresh")
        let calm = grader.labGrade(
            lab, variant: lab.variants[1],
            passes: [
                grader.pass(
                    VariantOutcome(
                        lab: "tiny", variant: "exercise", kind: .exercise, mode: .scripted,
                        runs: [cleanRun(seed: 8, mode: .scripted)]),
                    lab: lab, runs: 1, iterations: 3, points: 5)
            ], stress: plan)
        memo.remember(calm, for: key)
        XCTAssertEqual(memo.grade(for: key), calm)
    }

    func testAHarnessThatCannotStartChildrenIsAHarnessFailure() {
        var broken = cleanRun(seed: 7, mode: .scripted)
        broken.cannotJudge(.couldNotStart, "could not start the child process: no such file")
        let pass = grader.pass(
            VariantOutcome(lab: "tiny", variant: "exercise", kind: .exercise, mode: .scripted, runs: [broken]),
            lab: lab, runs: 1, iterations: 3, points: 5)
        XCTAssertEqual(pass.status, .error)
        XCTAssertNotNil(pass.harnessFailure)
    }

    /// A pass left out because an earlier one caught the bug: skipped, scoring nothing, and the
    /// lab's message names only the pass that failed.
    func testASkippedPassScoresNothingAndIsNotBlamed() {
        let failing = grader.pass(
            VariantOutcome(
                lab: "tiny", variant: "exercise", kind: .exercise, mode: .scripted,
                runs: [racyRun(seed: 40)]), lab: lab, runs: 3, iterations: 3, points: 4)
        let skipped = grader.pass(
            VariantOutcome(lab: "tiny", variant: "exercise", kind: .exercise, mode: .stress, runs: []),
            lab: lab, runs: 2, iterations: 200, points: 3)
        XCTAssertEqual(skipped.status, .skipped)
        XCTAssertEqual(skipped.score, 0)
        XCTAssertEqual(skipped.size, "2 runs x 200 iterations", "the planned size, though none ran")
        let grade = grader.labGrade(
            lab, variant: lab.variants[1], passes: [failing, skipped],
            stress: StressPlan.make(lab, calibration: nil, policy: GradingPolicy()))
        XCTAssertEqual(grade.status, .failed)
        XCTAssertTrue(grade.message.contains("(seen in the scripted pass of"), grade.message)
    }

    /// LabRunner's stop groups: once a group's run catches a bug, its runs not yet started are
    /// left out; other groups run in full. Scripted runs go before stress ones.
    func testStopGroupsLeaveOutTheRunsOfACaughtLab() throws {
        // every run: a harness error (cannot start), never a catch
        let child = URL(fileURLWithPath: "/nonexistent/racelab-child")
        let lab = self.lab
        let rows = [RunMode.scripted, .stress].map { mode in
            var settings = RunSettings(executable: child, runs: 2, seed: 1)
            settings.sandbox = false  // so the start itself fails, here
            return LabRunner.Row(lab: lab, variant: lab.variants[1], mode: mode, settings: settings)
        }
        let outcomes = LabRunner.run(rows, jobs: 1, stopGroups: [0, 0])
        XCTAssertEqual(outcomes.map(\.runs.count), [2, 2], "harness errors are not catches: nothing is skipped")
    }

    // MARK: Formats

    func sampleReport() -> GradeReport {
        let plan = StressPlan.make(lab, calibration: calibration([1, 3, 2, 5]), policy: GradingPolicy())
        let failing = grader.pass(
            VariantOutcome(
                lab: "tiny", variant: "exercise", kind: .exercise, mode: .scripted,
                runs: [racyRun(seed: 40)]), lab: lab, runs: 1, iterations: 3, points: 5)
        let passing = grader.pass(
            VariantOutcome(
                lab: "tiny", variant: "exercise", kind: .exercise, mode: .stress,
                runs: [cleanRun(seed: 1040, mode: .stress)]), lab: lab, runs: 1, iterations: 200, points: 5)
        let partial = grader.labGrade(lab, variant: lab.variants[1], passes: [failing, passing], stress: plan)
        let scriptedPassing = grader.pass(
            VariantOutcome(
                lab: "tiny", variant: "exercise", kind: .exercise, mode: .scripted,
                runs: [cleanRun(seed: 40, mode: .scripted)]), lab: lab, runs: 1, iterations: 3, points: 5)
        var full = grader.labGrade(lab, variant: lab.variants[1], passes: [scriptedPassing, passing], stress: plan)
        full.lab = "tiny-two"
        let integrity = GradeIntegrity(
            status: .verified, manifestDigest: "abc", findings: [], message: "only exercise files differ <&>")
        return GradeReport(
            command: "racelab grade", student: "ada", seed: 40, policy: GradingPolicy(), integrity: integrity,
            labs: [partial, full], elapsedSeconds: 12.3456)
    }

    func testJSONRoundTrips() throws {
        let report = sampleReport()
        let decoded = try XCTUnwrap(GradeJSON.decode(GradeFormat.json.render(report)))
        XCTAssertEqual(decoded.labs, report.labs)
        XCTAssertEqual(decoded.score, 10)
        XCTAssertEqual(decoded.maxScore, 20)
    }

    func testGradescopeResults() throws {
        let text = GradeFormat.gradescope.render(sampleReport())
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(json["score"] as? Double, 10)
        let tests = try XCTUnwrap(json["tests"] as? [[String: Any]])
        // One test per lab: one verdict, as the score has.
        XCTAssertEqual(tests.map { $0["name"] as? String }, ["tiny: A tiny lab", "tiny-two: A tiny lab"])
        XCTAssertEqual(tests.map { $0["score"] as? Double }, [0, 10])
        XCTAssertEqual(tests.map { $0["max_score"] as? Double }, [10, 10])
        XCTAssertEqual(tests.map { $0["status"] as? String }, ["failed", "passed"])
        XCTAssertTrue(tests.allSatisfy { $0["visibility"] as? String == "visible" })
        let output = try XCTUnwrap(tests[0]["output"] as? String)
        XCTAssertTrue(output.contains("your line Exercise.swift:39"), output)
        XCTAssertTrue(output.contains("--seed 40"), output)
        XCTAssertTrue(output.contains("stress pass (1 run x 200 iterations): passed"), output)
        XCTAssertTrue(
            (tests[1]["output"] as? String)?.contains("Chance that an unfixed exercise passes: at most") == true)
    }

    func testJUnitFollowsSurefire() throws {
        let xml = GradeFormat.junit.render(sampleReport())
        final class Collector: NSObject, XMLParserDelegate {
            var elements: [(String, [String: String])] = []
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) { elements.append((name, attributes)) }
        }
        let collector = Collector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
        let suite = try XCTUnwrap(collector.elements.first)
        XCTAssertEqual(suite.0, "testsuite")
        XCTAssertEqual(suite.1["tests"], "2")
        XCTAssertEqual(suite.1["failures"], "1")
        XCTAssertEqual(suite.1["errors"], "0")
        XCTAssertEqual(suite.1["skipped"], "0")
        XCTAssertEqual(suite.1["time"], "12.346")
        XCTAssertEqual(suite.1["name"], "racelab.grade.ada")
        let cases = collector.elements.filter { $0.0 == "testcase" }
        XCTAssertEqual(cases.map { $0.1["classname"] }, ["racelab.tiny", "racelab.tiny-two"])
        XCTAssertEqual(cases.map { $0.1["name"] }, ["tiny", "tiny-two"])
        XCTAssertTrue(
            cases.allSatisfy { $0.1["time"]?.range(of: #"^\d+\.\d{3}$"#, options: .regularExpression) != nil })
        let failure = try XCTUnwrap(collector.elements.first { $0.0 == "failure" })
        XCTAssertEqual(failure.1["type"], "racelab.detected")
        XCTAssertTrue(failure.1["message"]?.hasPrefix("tiny: 0/10, not fixed yet: a lab check failed") == true)
        XCTAssertEqual(properties(collector)["partial_credit"], "no")
        XCTAssertEqual(properties(collector)["integrity.message"], "only exercise files differ <&>")
        XCTAssertEqual(properties(collector)["tiny.stress.iterations"], "4 x 100")
        func properties(_ collector: Collector) -> [String: String] {
            Dictionary(
                collector.elements.filter { $0.0 == "property" }.map { ($0.1["name"]!, $0.1["value"]!) },
                uniquingKeysWith: { a, _ in a })
        }
    }

    func testTextReport() {
        let text = GradeFormat.text.render(sampleReport())
        XCTAssertTrue(text.contains("TOTAL"), text)
        XCTAssertTrue(text.contains("Stress pass per lab"), text)
        XCTAssertTrue(text.contains("tiny: 4 x 100 iterations; chance at most"), text)
        XCTAssertTrue(text.hasSuffix("Score 10/20 in 12.3s."), text)
    }

    func testANotGradedLabScoresZeroWithItsReason() {
        let grade = grader.notGraded(
            lab, variant: lab.variants[1], stress: StressPlan.make(lab, calibration: nil, policy: GradingPolicy()),
            status: .tampered, reason: "Sources/X.swift changed")
        XCTAssertEqual(grade.score, 0)
        XCTAssertEqual(grade.maxScore, 10)
        XCTAssertEqual(grade.passes.map(\.status), [.error, .error, .error])
        XCTAssertEqual(grade.passes.map(\.mode), [.scripted, .explore, .stress])
        let xml = GradeFormat.junit.render(
            GradeReport(
                command: "c", seed: 1, policy: GradingPolicy(),
                integrity: GradeIntegrity(status: .tampered, manifestDigest: nil, findings: [], message: "m"),
                labs: [grade], elapsedSeconds: 0))
        XCTAssertTrue(xml.contains(#"type="racelab.tampered""#), xml)
        XCTAssertTrue(xml.contains(#"errors="1""#), xml)
    }

    /// `racelab grade` and `check`: a lab whose exercise the checks refused scores zero unrun;
    /// the others are left to be graded.
    func testARefusedExerciseIsGradedZeroWithoutRunning() {
        let violation = PolicyViolation(
            rule: "import", file: "Labs/Tiny/Exercise.swift", line: 1, construct: "import Glibc", why: "no C")
        XCTAssertEqual(grader.rejectedGrades(of: [lab], violations: [:], calibrations: nil).count, 0)
        let grades = grader.rejectedGrades(
            of: [lab], violations: ["tiny": [violation], "other": [violation]], calibrations: nil)
        XCTAssertEqual(Array(grades.keys), ["tiny"])
        XCTAssertEqual(grades["tiny"]?.score, 0)
        XCTAssertEqual(grades["tiny"]?.violations, [violation])
        XCTAssertEqual(grades["tiny"]?.passes.map(\.status), [.rejected, .rejected, .rejected])
    }

    /// `racelab export` names the labs grading would calibrate every time.
    func testALabWithoutACurrentCalibrationIsNamed() {
        XCTAssertEqual(CalibrationFile(labs: []).uncalibrated([lab]), ["tiny"])
        XCTAssertEqual(CalibrationFile(labs: [calibration([100])]).uncalibrated([lab]), [])
    }
}
