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

/// The racelab binary as a user meets it: bad input is one clear line and exit status 2.
final class CommandLineTests: XCTestCase {
    func testUnknownLabListsTheValidOnes() throws {
        let result = try LabsTestSupport.runRacelab(["run", "nosuchlab"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("racelab: unknown lab 'nosuchlab'; valid: list-adder"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(result.stdout, "")
    }

    /// `racelab doctor`: this machine's checks, each yes or no; here (Linux, TSan) all of them.
    func testDoctorSaysWhatThisMachineChecks() throws {
        let result = try LabsTestSupport.runRacelab(["doctor"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("yes  ThreadSanitizer built in"), result.stdout)
        if PlatformChecks.here.missing.isEmpty {
            XCTAssertTrue(result.stdout.contains("yes  stress pass: random preemption"), result.stdout)
            XCTAssertTrue(result.stdout.contains("a PASS here is the grader's PASS"), result.stdout)
        } else {  // the reduced build: what a system without the Linux facilities says
            XCTAssertTrue(result.stdout.contains("no   stress pass: random preemption"), result.stdout)
            XCTAssertTrue(result.stdout.contains("reduced check"), result.stdout)
        }
        let extra = try LabsTestSupport.runRacelab(["doctor", "now"])
        XCTAssertEqual(extra.status, 2)
        XCTAssertEqual(extra.stdout, "")
    }

    func testBadNumbersAndChoices() throws {
        let negative = try LabsTestSupport.runRacelab(["run", "list-adder", "--iterations", "-3"])
        XCTAssertEqual(negative.status, 2)
        XCTAssertEqual(negative.stderr, "racelab: --iterations must be a whole number from 1 to 1000000, not '-3'\n")
        let variant = try LabsTestSupport.runRacelab(["run", "list-adder", "--variant", "best"])
        XCTAssertEqual(variant.status, 2)
        XCTAssertTrue(variant.stderr.contains("valid: broken, fixed, exercise,"), variant.stderr)
        let mode = try LabsTestSupport.runRacelab(["run", "list-adder", "--mode", "fast"])
        XCTAssertEqual(mode.status, 2)
        // --schedule: the stress pass's, one of its ways or both.
        let notStress = try LabsTestSupport.runRacelab(["run", "list-adder", "--schedule", "priority"])
        XCTAssertEqual(notStress.status, 2)
        XCTAssertEqual(
            notStress.stderr,
            "racelab: --schedule orders the stress pass's preemption: give it with --mode stress (not --plain)\n")
        let way = try LabsTestSupport.runRacelab(["run", "list-adder", "--mode", "stress", "--schedule", "fast"])
        XCTAssertEqual(way.status, 2)
        XCTAssertEqual(way.stderr, "racelab: --schedule takes pauses, priority or both, not 'fast'\n")
        let plain = try LabsTestSupport.runRacelab([
            "run", "list-adder", "--mode", "stress", "--plain", "--schedule", "pauses"
        ])
        XCTAssertEqual(plain.status, 2)
        XCTAssertEqual(plain.stderr, notStress.stderr)
        let command = try LabsTestSupport.runRacelab(["frobnicate"])
        XCTAssertEqual(command.status, 2)
        XCTAssertEqual(
            command.stderr,
            "racelab: unknown command 'frobnicate'; valid: list, run, report, explain, check, hint, watch, progress, grade, grade-all, grade-merge, export, bench, calibrate, compiler-check, policy, doctor, stress, help\n"
        )
        let learners = try LabsTestSupport.runRacelab(["bench", "learners", "/nonexistent/class"])
        XCTAssertEqual(learners.status, 2)
        XCTAssertEqual(
            learners.stderr,
            "racelab: '/nonexistent/class' is not there: give progress files (.racelab/progress.json) or folders of students' kits\n"
        )
        // bench explain: the folder of the program's own code, and logs that are there.
        let noRoot = try LabsTestSupport.runRacelab(["bench", "explain", "a.log"])
        XCTAssertEqual(noRoot.status, 2)
        XCTAssertTrue(noRoot.stderr.hasPrefix("racelab: bench explain needs --user-root DIR"), noRoot.stderr)
        let noLog = try LabsTestSupport.runRacelab(["bench", "explain", "/nonexistent/a.log", "--user-root", "/w"])
        XCTAssertEqual(noLog.status, 2)
        XCTAssertEqual(
            noLog.stderr, "racelab: cannot read '/nonexistent/a.log'; bench explain takes ThreadSanitizer log files\n")
        XCTAssertEqual(noLog.stdout, "")
        let rootElsewhere = try LabsTestSupport.runRacelab(["bench", "corpus", "--user-root", "/w"])
        XCTAssertEqual(rootElsewhere.status, 2)
        let corpusPaths = try LabsTestSupport.runRacelab(["bench", "corpus", "extra"])
        XCTAssertEqual(corpusPaths.status, 2)
        XCTAssertTrue(
            corpusPaths.stderr.hasPrefix("racelab: bench corpus takes no paths ('extra')"), corpusPaths.stderr)
        // The stability grid's values are refused before any grading starts.
        let seeds = try LabsTestSupport.runRacelab(["bench", "corpus", "--labs", "list-adder", "--seeds", "0"])
        XCTAssertEqual(seeds.status, 2)
        XCTAssertEqual(seeds.stderr, "racelab: --seeds must be a whole number from 1 to 100, not '0'\n")
        let load = try LabsTestSupport.runRacelab(["bench", "corpus", "--load", "0,x"])
        XCTAssertEqual(load.status, 2)
        XCTAssertEqual(
            load.stderr,
            "racelab: --load must be a whole number of busy loops from 0 to 64, or a comma-separated list of them, each once (e.g. --load 0,3), not '0,x'\n"
        )
        XCTAssertEqual(load.stdout, "")
        let agreement = try LabsTestSupport.runRacelab(["bench", "agreement", "--load", "2"])
        XCTAssertEqual(agreement.status, 2)
        XCTAssertEqual(
            agreement.stderr,
            "racelab: bench agreement takes --labs and --seed only (it sets up check and grade as they set themselves up), not --load\n"
        )
        // racelab stress: its schedules, refused before any run.
        let program = LabsTestSupport.child.path
        let schedule = try LabsTestSupport.runRacelab(["stress", "--schedule", "fast", "--", program])
        XCTAssertEqual(schedule.status, 2)
        XCTAssertEqual(schedule.stderr, "racelab: --schedule takes pauses, priority or both, not 'fast'\n")
        let plainSchedule = try LabsTestSupport.runRacelab([
            "stress", "--plain", "--schedule", "priority", "--", program
        ])
        XCTAssertEqual(plainSchedule.status, 2)
        XCTAssertEqual(
            plainSchedule.stderr,
            "racelab: --plain runs without RaceLab's preemption: it takes no --schedule or --steps\n")
        let pausesSteps = try LabsTestSupport.runRacelab(
            ["stress", "--schedule", "pauses", "--steps", "40", "--", program])
        XCTAssertEqual(pausesSteps.status, 2)
        XCTAssertEqual(
            pausesSteps.stderr, "racelab: --steps is for the priority schedule: give --schedule priority or both\n")
        XCTAssertEqual(pausesSteps.stdout, "")
        let help = try LabsTestSupport.runRacelab(["help", "extra"])
        XCTAssertEqual(help.status, 2, "help on a command that does not exist is bad usage, not a success")
        XCTAssertTrue(help.stderr.hasPrefix("racelab: unknown command 'extra'; valid: list, run,"), help.stderr)
        XCTAssertEqual(help.stderr.split(separator: "\n").count, 1)
    }

    /// Every command's help comes from its declaration: `racelab help COMMAND` and
    /// `racelab COMMAND --help` print the same page, which names every option the command takes.
    func testEachCommandHasItsOwnHelp() throws {
        let overview = try LabsTestSupport.runRacelab(["help"])
        XCTAssertEqual(overview.status, 0)
        for name in ["list", "run", "explain", "check", "grade", "grade-all", "bench", "compiler-check", "doctor"] {
            XCTAssertTrue(overview.stdout.contains("racelab \(name)"), "\(name) in the overview:\n\(overview.stdout)")
        }
        let help = try LabsTestSupport.runRacelab(["help", "run"])
        let flag = try LabsTestSupport.runRacelab(["run", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertEqual(help.stdout, flag.stdout)
        XCTAssertTrue(help.stdout.hasPrefix("usage: racelab run [<lab>] [--all]"), help.stdout)
        for option in [
            "--variant", "--mode", "--point", "--iterations", "--runs", "--seed", "--timeout", "--jobs", "--logs",
            "--trace", "--html", "--json"
        ] {
            XCTAssertTrue(help.stdout.contains("\n  \(option)"), "\(option) in run's help:\n\(help.stdout)")
        }
        // An option's error lists what is valid, in the declared order.
        let bad = try LabsTestSupport.runRacelab(["check", "list-adder", "--colour"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "racelab: unknown option '--colour' for 'check'; valid: --seed, --jobs\n")
    }

    /// Ctrl-C stops a long run at once: status 130, no child left running, no temporary folder
    /// left behind.
    func testInterruptStopsEverythingAndCleansUp() throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "racelab-sigint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let process = Process()
        process.executableURL = LabsTestSupport.racelab
        process.arguments = ["run", "list-adder", "--variant", "all", "--runs", "40", "--seed", "7654321"]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until a child is running (its run folder exists), then interrupt.
        let deadline = Date(timeIntervalSinceNow: 20)
        while Date() < deadline, ((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []).isEmpty
        { usleep(50_000) }
        usleep(300_000)
        kill(process.processIdentifier, SIGINT)
        let interrupted = Date()
        process.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(interrupted), 5)
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 130)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: temporary.path), [], "no run folder left behind")
        usleep(200_000)
        let table = ProcessTree.snapshot()
        guard !table.isEmpty else { return }  // no /proc (off Linux): the children cannot be listed
        let children = table.filter { ProcessTree.readFile("/proc/\($0.pid)/cmdline")?.contains("765432") == true }
        XCTAssertEqual(children.count, 0, "no child left running")
    }

    /// An output file that cannot be written is refused before any work (not after minutes of it),
    /// in one line that says what is valid, and nothing is created.
    func testUnwritableOutputsFailBeforeAnyWork() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let missing = scratch.appendingPathComponent("no")
        let refusals: [(arguments: [String], message: String)] = [
            (
                ["run", "list-adder", "--html", "/nonexistent-folder/run.html"],
                "racelab: cannot write the HTML report: the folder '/nonexistent-folder' does not exist"
            ),
            (
                ["grade", "--labs", "list-adder", "--output", "/nonexistent-folder/grade.json"],
                "racelab: cannot write the report: the folder '/nonexistent-folder' does not exist"
            ),
            (
                ["grade", "--labs", "list-adder", "--output", "/tmp"],
                "racelab: cannot write the report: '/tmp' is a folder"
            ),
            // A saved report rendered again: refused before it is read (it was a harness failure, exit 1).
            (
                ["grade", "--from", "/nonexistent-report.json", "--output", missing.path + "/grade.txt"],
                "racelab: cannot write the report: the folder '\(missing.path)' does not exist; "
                    + "give --output a file in a folder you can write"
            ),
            (
                ["run", "list-adder", "--variant", "exercise", "--html", missing.path + "/run.html"],
                "racelab: cannot write the HTML report: the folder '\(missing.path)' does not exist; "
                    + "give --html a file in a folder you can write"
            ),
            (
                ["report", "/nonexistent-results.json", "--html", missing.path + "/run.html"],
                "racelab: cannot write the HTML report: the folder '\(missing.path)' does not exist"
            ),
            (
                ["export", missing.path + "/kit"],
                "racelab: cannot write the kit into '\(missing.path)/kit': its parent folder '\(missing.path)' "
                    + "does not exist; give export a folder you can write, in a folder that exists"
            ),
            (
                ["export", "--gradescope", missing.path + "/autograder.zip"],
                "racelab: cannot write the autograder: the folder '\(missing.path)' does not exist"
            ),
            // grade-all's --output: GradingTests.testGradeAllRefusesBadUsageBeforeAnyWorkAndCreatesNothing.
            (
                ["grade-merge", "/nonexistent-shard", "--output", missing.path + "/grades"],
                "racelab: cannot write the merged grades into '\(missing.path)/grades': its parent folder "
                    + "'\(missing.path)' does not exist; give --output a folder you can write, in a folder that exists"
            )
        ]
        for (arguments, message) in refusals {
            let started = Date()
            let result = try LabsTestSupport.runRacelab(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, "\(arguments) failed before running anything")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path), "\(arguments): nothing created")
        }
    }

    func testListAndJSONRun() throws {
        let list = try LabsTestSupport.runRacelab(["list"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.stdout.contains("list-adder"))
        // The fixed variant when solutions ship; in a student kit, the broken one (caught, as expected).
        let variant = testLabs.lab("list-adder").map(LabsTestSupport.shipsSolutions) == true ? "fixed" : "broken"
        let run = try LabsTestSupport.runRacelab([
            "run", "list-adder", "--variant", variant, "--mode", "scripted", "--json", "--seed", "3"
        ])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["allExpectationsMet"] as? Bool, true)
        XCTAssertEqual(json["seed"] as? Int, 3)
    }

    /// The compiler column's measurement, on one lab, printed but not stored (--no-write).
    func testCompilerCheckOneLab() throws {
        let bad = try LabsTestSupport.runRacelab(["compiler-check", "--labs", "nosuchlab"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("racelab: unknown lab 'nosuchlab'; valid: list-adder"), bad.stderr)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1)
        let run = try LabsTestSupport.runRacelab(["compiler-check", "--labs", "list-adder", "--no-write", "--json"])
        if run.status == 1 && run.stderr.contains("swiftc not found") { throw XCTSkip(run.stderr) }
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let results = try XCTUnwrap(json["results"] as? [[String: Any]])
        XCTAssertEqual(results.compactMap { $0["part"] as? String }.first, "broken")
        XCTAssertTrue(
            results.allSatisfy { ["rejected", "warns", "accepted"].contains($0["status"] as? String ?? "") }, run.stdout
        )
        XCTAssertEqual((json["unchecked"] as? [Any])?.count, 0, run.stdout)
    }

    func testUnsolvedExerciseFailsItsExpectation() throws {
        let run = try LabsTestSupport.runRacelab([
            "run", "list-adder", "--variant", "exercise", "--mode", "scripted", "--seed", "9"
        ])
        // The exercise ships as a copy of the broken code; once a student fixes it this flips to 0.
        if run.status == 1 {
            XCTAssertTrue(
                run.stdout.contains(
                    "FAIL list-adder exercise (scripted) is NOT clean: lab list-adder, variant exercise, seed 9."),
                run.stdout)
            XCTAssertTrue(
                run.stdout.contains(
                    "racelab run list-adder --variant exercise --mode scripted --iterations 3 --seed 9"), run.stdout)
        } else {
            XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        }
    }
}

final class ReportCommandTests: XCTestCase {
    func testJSONRunBecomesAnHTMLReport() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "racelab-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let html = directory.appendingPathComponent("run.html").path
        let run = try LabsTestSupport.runRacelab([
            "run", "list-adder", "--variant", "broken", "--seed", "4", "--json", "--html", html
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        let saved = directory.appendingPathComponent("run.json")
        try Data(run.stdout.utf8).write(to: saved)
        let again = directory.appendingPathComponent("again.html").path
        let report = try LabsTestSupport.runRacelab(["report", saved.path, "--html", again])
        XCTAssertEqual(report.status, 0, report.stderr)
        let first = try String(contentsOfFile: html, encoding: .utf8)
        XCTAssertTrue(first.contains("<svg"), "the run was traced for the timeline")
        XCTAssertEqual(try String(contentsOfFile: again, encoding: .utf8), first)
        let missing = try LabsTestSupport.runRacelab(["report", "/nonexistent.json", "--html", again])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(
            missing.stderr, "racelab: cannot read '/nonexistent.json': give the file written by racelab run --json\n")
    }
}
