import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabGrading
import RaceLabHarness
import RaceLabReports
import Synchronization
import TSanReports
import XCTest

#if RACELAB_SOLUTIONS
    import SolutionCatalog
#endif

/// Grading with the real racelab binary and real child processes.
final class GradingTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-grading-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: scratch) }

    /// The fixed variant stands in for a solved exercise, the broken one for an unsolved one:
    /// full marks and zero, through the very passes `racelab grade` runs.
    func testSolvedScoresFullMarksAndBrokenScoresZero() throws {
        let playable = try XCTUnwrap(testLabs.lab("list-adder"))
        try LabsTestSupport.requireSolutions(playable)
        let lab = playable.lab
        let fixed = try XCTUnwrap(lab.variants.first { $0.kind == .fixed })
        let broken = try XCTUnwrap(lab.variants.first { $0.kind == .broken })
        let grader = Grader(executable: LabsTestSupport.child, seed: 77)
        let plan = StressPlan.make(lab, calibration: nil, policy: grader.policy)

        let solved = grader.grade(lab, variant: fixed, stress: plan)
        XCTAssertEqual(solved.status, .passed, GradeText.render(report([solved])))
        XCTAssertEqual(solved.score, 10)
        XCTAssertEqual(solved.passes.map(\.mode), [.scripted, .explore, .stress])
        XCTAssertEqual(solved.passes.map(\.runs), [3, 1, 4])
        // stress: twice list-adder's 100 default iterations, in 4 runs
        XCTAssertEqual(solved.passes.map(\.iterationsPerRun), [3, 41, 50])
        // The text table has a column per pass, each under its own name.
        let table = GradeText.render(report([solved])).split(separator: "\n").map(String.init)
        let header = try XCTUnwrap(table.first { $0.hasPrefix("LAB") })
        XCTAssertEqual(
            header.split(separator: " ").map(String.init), ["LAB", "SCRIPTED", "EXPLORE", "STRESS", "SCORE", "STATUS"])
        let row = try XCTUnwrap(table.first { $0.hasPrefix("list-adder") })
        XCTAssertTrue(row.contains("PASSED (4/4)") && row.contains("PASSED (3/3)") && row.contains("10/10"), row)

        let unsolved = grader.grade(lab, variant: broken, stress: plan)
        XCTAssertEqual(unsolved.status, .failed)
        XCTAssertEqual(unsolved.score, 0)
        XCTAssertTrue(unsolved.message.contains("The lab's bug, for reference: \(lab.info.bug)"), unsolved.message)
        XCTAssertTrue(unsolved.message.hasPrefix("list-adder: 0/10, not fixed yet: "), unsolved.message)
        XCTAssertTrue(
            unsolved.message.contains("lab list-adder, variant broken, seed 77; reproduce: "), unsolved.message)
        // One verdict: the scripted pass caught it, so the stress pass was not even run.
        XCTAssertEqual(unsolved.passes.last?.status, .skipped)
        let first = try XCTUnwrap(unsolved.passes[0].problems.first)
        // The racing read TSan catches is the count (line 37) or an element (line 39).
        XCTAssertTrue(
            first.lines.contains { $0.contains("Broken.swift:37") || $0.contains("Broken.swift:39") }, "\(first.lines)")
        XCTAssertTrue(
            first.reproduce.hasSuffix("run list-adder --variant broken --mode scripted --iterations 3 --seed 77"),
            first.reproduce)
    }

    func report(_ labs: [LabGrade]) -> GradeReport {
        GradeReport(
            command: "test", seed: 77, policy: GradingPolicy(),
            integrity: GradeIntegrity(status: .unchecked, manifestDigest: nil, findings: [], message: "test"),
            labs: labs, elapsedSeconds: 0)
    }

    func testGradeCommandInEveryFormat() throws {
        // The exercise as shipped is the broken code: zero, and exit 0 (graded, whatever the score).
        let json = try LabsTestSupport.runRacelab(["grade", "--labs", "list-adder", "--format", "json", "--seed", "5"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let report = try XCTUnwrap(
            try? JSONDecoder().decode(GradeReport.self, from: Data(json.stdout.utf8)), json.stdout)
        let lab = try XCTUnwrap(report.labs.first)
        XCTAssertEqual(lab.lab, "list-adder")
        XCTAssertTrue(lab.score == 0 || lab.score == 10, "all or nothing for an exercise that is unsolved or solved")
        XCTAssertGreaterThan(lab.stress.iterationsPerRun, 0)
        if lab.score == 0 {
            XCTAssertTrue(
                lab.message.contains("not fixed yet: ") && lab.message.contains("The lab's bug, for reference: "),
                lab.message)
            let line = try LabsTestSupport.line(
                of: "let count = self.numbers.count", in: "Labs/ListAdder/Exercise.swift")
            XCTAssertTrue(
                lab.passes[0].problems.first?.lines.contains {
                    $0.contains("Exercise.swift:\(line)") || $0.contains("Exercise.swift:\(line + 2)")
                } == true)
        }
        let output = scratch.appendingPathComponent("results.json")
        let gradescope = try LabsTestSupport.runRacelab([
            "grade", "--labs", "list-adder", "--format", "gradescope", "--seed", "5", "--output", output.path
        ])
        XCTAssertEqual(gradescope.status, 0, gradescope.stderr)
        XCTAssertTrue(gradescope.stdout.hasPrefix("racelab: graded 1 lab(s): "), gradescope.stdout)
        let results = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        XCTAssertEqual((results["tests"] as? [Any])?.count, 1, "one test per lab")
        XCTAssertEqual(results["score"] as? Double, lab.score)
        let junit = try LabsTestSupport.runRacelab(["grade", "--labs", "list-adder", "--format", "junit", "--seed", "5"]
        )
        XCTAssertEqual(junit.status, 0, junit.stderr)
        XCTAssertTrue(
            junit.stdout.contains(#"<testcase name="list-adder" classname="racelab.list-adder""#), junit.stdout)
    }

    func testExportedKitAndATamperedSubmission() throws {
        let kit = scratch.appendingPathComponent("kit")
        let export = try LabsTestSupport.runRacelab(["export", kit.path, "--runners", "3"])
        XCTAssertEqual(export.status, 0, export.stderr)
        // For the instructor: the class on 3 runners, and the summary says where that is.
        let classWorkflow = try String(
            contentsOf: kit.appendingPathComponent(ClassGradingWorkflow.path), encoding: .utf8)
        XCTAssertTrue(classWorkflow.contains("--shard ${{ matrix.shard }}/3"), classWorkflow)
        XCTAssertTrue(classWorkflow.contains(" grade-merge shards/grades-shard-* --output grades"), classWorkflow)
        XCTAssertTrue(
            export.stdout.contains("  for you, not the students: instructor/grade-class.yml grades the whole class"),
            export.stdout)
        let manifest = try KitManifest.read(from: kit.appendingPathComponent(KitManifest.fileName))
        XCTAssertTrue(manifest.files.keys.allSatisfy { !KitManifest.isSolution($0) }, "no reference solutions in a kit")
        XCTAssertTrue(manifest.files.keys.contains("Package.swift"))
        XCTAssertTrue(manifest.files.keys.contains("Sources/RaceLabGrading/Grader.swift"))
        XCTAssertEqual(manifest.editable.count, testLabs.labs.count)
        XCTAssertEqual(TamperCheck.check(kit, against: manifest), [])

        // A trusted manifest that says the harness was different: this package is then "tampered",
        // is not run at all, and scores zero; grading still exits 0 (it graded).
        var trusted = manifest
        trusted.files["Sources/RaceLabHarness/Verdict.swift"] = String(repeating: "0", count: 64)
        let trustedFile = scratch.appendingPathComponent("trusted.json")
        try trusted.write(to: trustedFile)
        let graded = try LabsTestSupport.runRacelab(["grade", "--manifest", trustedFile.path, "--format", "json"])
        XCTAssertEqual(graded.status, 0, graded.stderr)
        let report = try XCTUnwrap(
            try? JSONDecoder().decode(GradeReport.self, from: Data(graded.stdout.utf8)), graded.stdout)
        XCTAssertEqual(report.integrity.status, .tampered)
        XCTAssertTrue(
            report.integrity.findings.contains {
                $0.path == "Sources/RaceLabHarness/Verdict.swift" && $0.kind == .changed
            })
        XCTAssertEqual(report.score, 0)
        XCTAssertTrue(report.labs.allSatisfy { $0.status == .tampered && $0.passes.allSatisfy { $0.problems.isEmpty } })
        XCTAssertLessThan(report.elapsedSeconds, 5, "nothing was run")
    }

    func testHintsOneAtATimeAndProgress() throws {
        let environment = ["RACELAB_PROGRESS_FILE": scratch.appendingPathComponent("progress.json").path]
        let first = try LabsTestSupport.runRacelab(["hint", "stale-results"], environment: environment)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.hasPrefix("Hint 1 of "), first.stdout)
        let second = try LabsTestSupport.runRacelab(["hint", "stale-results"], environment: environment)
        XCTAssertTrue(second.stdout.hasPrefix("Hint 2 of "), second.stdout)
        XCTAssertTrue(second.stdout.contains("newest"), "the lesson's own Hint: line comes second: \(second.stdout)")
        let reset = try LabsTestSupport.runRacelab(["hint", "stale-results", "--reset"], environment: environment)
        XCTAssertEqual(reset.status, 0)
        XCTAssertTrue(
            try LabsTestSupport.runRacelab(["hint", "stale-results"], environment: environment).stdout.hasPrefix(
                "Hint 1 of "))

        let progress = try LabsTestSupport.runRacelab(["progress"], environment: environment)
        XCTAssertEqual(progress.status, 0, progress.stderr)
        for lab in testLabs.labs { XCTAssertTrue(progress.stdout.contains(lab.id), progress.stdout) }
        XCTAssertTrue(progress.stdout.contains("lab(s) passing."), progress.stdout)
    }

    func testCheckTellsTheStudentWhatIsWrong() throws {
        let environment = ["RACELAB_PROGRESS_FILE": scratch.appendingPathComponent("progress.json").path]
        let check = try LabsTestSupport.runRacelab(["check", "list-adder", "--seed", "9"], environment: environment)
        XCTAssertTrue(check.stdout.hasPrefix("Checking list-adder: "), check.stdout)
        if check.status == 1 {
            XCTAssertTrue(check.stdout.contains("ThreadSanitizer found a Swift access race:"), check.stdout)
            let line = try LabsTestSupport.line(
                of: "let count = self.numbers.count", in: "Labs/ListAdder/Exercise.swift")
            XCTAssertTrue(
                check.stdout.contains("your line Exercise.swift:\(line)")
                    || check.stdout.contains("your line Exercise.swift:\(line + 2)"), check.stdout)
            XCTAssertTrue(check.stdout.contains("lab list-adder, variant exercise, seed 9, iteration 1:"), check.stdout)
            XCTAssertTrue(
                check.stdout.contains("--variant exercise --mode scripted --iterations 3 --seed 9"), check.stdout)
            XCTAssertTrue(
                check.stdout.contains(
                    "NOT PASSING YET: 0/10: ThreadSanitizer saw a Swift access race at your line Exercise.swift:"),
                check.stdout)
            // Recorded as failing; in a student kit an exercise still as shipped reads "not started".
            let progress = try LabsTestSupport.runRacelab(["progress"], environment: environment)
            let row =
                progress.stdout.split(separator: "\n").first { $0.hasPrefix("list-adder ") }.map(String.init) ?? ""
            XCTAssertTrue(row.contains("failing") || row.contains("not started"), progress.stdout)
        } else {
            XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
            XCTAssertTrue(check.stdout.contains("PASSING: 10/10."), check.stdout)
        }
    }

    func testBadGradingInputIsOneLineAndExitTwo() throws {
        for (arguments, message) in [
            (["grade", "--labs", "nosuch"], "racelab: unknown lab 'nosuch'; valid: list-adder"),
            (["grade", "--format", "xml"], "racelab: --format must be one of text, json, junit, gradescope, not 'xml'"),
            (["grade", "--manifest", "/nonexistent.json"], "racelab: cannot read the manifest '/nonexistent.json'"),
            (["check"], "racelab: missing argument; usage: racelab check <lab>"),
            (["hint", "nosuch"], "racelab: unknown lab 'nosuch'"),
            (["grade-all", scratch.path], "racelab: no submissions in"),
            (
                ["export"],
                "racelab: where to? racelab export DIR (a student kit) or racelab export --gradescope FILE.zip"
            ),
            (
                ["export", "--gradescope", "autograder.tar"],
                "racelab: --gradescope writes a zip: give a file name ending in .zip"
            ),
            (["grade-all", "--prepare"], "racelab: --prepare builds the kit into a kept workspace"),
            (
                ["export", scratch.appendingPathComponent("kit").path, "--runners", "0"],
                "racelab: --runners must be a whole number from 1 to 256, not '0'"
            ),
            (
                ["export", "--gradescope", "autograder.zip", "--runners", "2"],
                "racelab: --runners writes the class-grading workflow of a kit folder"
            )
        ] {
            let result = try LabsTestSupport.runRacelab(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
    }

    /// grade-all refuses bad usage before it builds or creates anything: a kit without its
    /// manifest, an unknown or empty --labs, an output or workspace folder that cannot be made.
    func testGradeAllRefusesBadUsageBeforeAnyWorkAndCreatesNothing() throws {
        let submissions = scratch.appendingPathComponent("subs")
        let kit = scratch.appendingPathComponent("kit")
        try FileManager.default.createDirectory(
            at: submissions.appendingPathComponent("alice"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: kit, withIntermediateDirectories: true)
        try KitManifest(files: ["Labs/ListAdder/Exercise.swift": "00"]).write(
            to: kit.appendingPathComponent(KitManifest.fileName))
        let output = scratch.appendingPathComponent("grades")
        for (extra, message) in [
            (["--kit", scratch.appendingPathComponent("nokit").path], "racelab: no readable racelab-kit.json in"),
            (["--kit", kit.path, "--labs", "nosuch"], "racelab: unknown lab 'nosuch' in --labs; the kit's labs:"),
            (["--kit", kit.path, "--labs", ","], "racelab: --labs needs lab ids"),
            (
                ["--kit", kit.path, "--workspace", scratch.appendingPathComponent("no/such/ws").path],
                "racelab: cannot use the workspace"
            )
        ] {
            let result = try LabsTestSupport.runRacelab(
                ["grade-all", submissions.path, "--output", output.path] + extra)
            XCTAssertEqual(result.status, 2, "\(extra): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix(message), "\(extra): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "\(extra): nothing is created")
        }
        let deep = scratch.appendingPathComponent("no/such/grades")
        let result = try LabsTestSupport.runRacelab([
            "grade-all", submissions.path, "--kit", kit.path, "--output", deep.path
        ])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("racelab: cannot write reports into"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("no").path))
    }

    /// A kit's manifest names lab folders; grade-all's --labs takes ids: every lab's folder
    /// gives its id.
    func testEveryLabFolderGivesItsID() {
        for lab in testLabs.labs {
            XCTAssertEqual(KitManifest.labID(folder: lab.info.folder.lastPathComponent), lab.id)
        }
    }

    /// Several racelab commands at once lose nothing of the student's progress: the file is
    /// changed under a lock, and written whole.
    func testConcurrentHintsLoseNothing() throws {
        let file = scratch.appendingPathComponent("progress.json")
        let labs = Array(testLabs.labs.prefix(6))
        let group = DispatchGroup()
        let statuses = Mutex<[Int32]>([])
        for lab in labs + labs {
            group.enter()
            DispatchQueue.global().async {
                let status =
                    (try? LabsTestSupport.runRacelab(
                        ["hint", lab.id], environment: ["RACELAB_PROGRESS_FILE": file.path]))?.status ?? -1
                statuses.withLock { $0.append(status) }
                group.leave()
            }
        }
        group.wait()
        XCTAssertEqual(statuses.withLock { $0 }, Array(repeating: 0, count: 12))
        let progress = StudentProgress.load(from: file)
        for lab in labs {
            XCTAssertEqual(progress.hintsShown[lab.id], 2, "\(lab.id): two hints asked for, two counted")
        }
    }

    /// A progress file that cannot be read is kept aside and named, never silently replaced.
    func testACorruptProgressFileIsKeptAside() throws {
        let file = scratch.appendingPathComponent("progress.json")
        try Data("{ not json".utf8).write(to: file)
        let shown = try LabsTestSupport.runRacelab(["progress"], environment: ["RACELAB_PROGRESS_FILE": file.path])
        XCTAssertTrue(shown.stderr.contains("is not readable progress; it was left as it is"), shown.stderr)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "{ not json", "reading never replaces it")
        let hint = try LabsTestSupport.runRacelab(
            ["hint", "list-adder"], environment: ["RACELAB_PROGRESS_FILE": file.path])
        XCTAssertEqual(hint.status, 0)
        XCTAssertTrue(hint.stderr.contains("could not be read; it was kept as "), hint.stderr)
        let kept = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter {
            $0.hasPrefix("progress.json.corrupt-")
        }
        XCTAssertEqual(kept.count, 1)
        XCTAssertEqual(try String(contentsOf: scratch.appendingPathComponent(kept[0]), encoding: .utf8), "{ not json")
        XCTAssertEqual(StudentProgress.load(from: file).hintsShown["list-adder"], 1)
    }
}
