import CRaceLabSupport
import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness
import TSanReports

/// The commands that measure the grader: bench (corpus, agreement, learners, explain, profile)
/// and calibrate. Thin: the work is done by CorpusBenchmark, CorpusStability, GraderAgreement,
/// StressCalibration, ExplanationCoverage, and `racelab run` with ProfileTable.
extension RaceLabCommandLine {
    // MARK: bench

    func bench(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let which = arguments.positionals[0]
        if which == "learners" { return try learners(Array(arguments.positionals.dropFirst())) }
        if which == "explain" { return try explainCoverage(Array(arguments.positionals.dropFirst()), arguments) }
        if which == "stress" { return try stressBenchmark(Array(arguments.positionals.dropFirst()), arguments) }
        if which == "profile" { return try profile(arguments) }
        guard which == "corpus" || which == "agreement" else {
            throw UsageError(
                "unknown benchmark '\(which)'; valid: corpus, agreement, learners, explain, stress, profile")
        }
        if let runs = arguments.string("runs") {
            throw UsageError("--runs is for bench stress and bench profile, not bench \(which) ('\(runs)')")
        }
        if let root = arguments.string("user-root") {
            throw UsageError("--user-root is for bench explain, not bench \(which) ('\(root)')")
        }
        guard arguments.positionals.count == 1 else {
            throw UsageError(
                "bench \(which) takes no paths ('\(arguments.positionals[1])'); usage: \(Self.benchSpec.usage)")
        }
        if which == "agreement" { return try agreement(arguments) }
        // Every value checked before any work (a bad one: one line, exit status 2).
        let grid = try CorpusStability.Grid(arguments, randomSeed: UInt64.random(in: 1...999_999))
        let jobs = try jobs(arguments)
        let root = try requireRoot()
        try requireTSan()
        let labs = try corpusLabs(arguments)
        let live = ProgressLine(enabled: isatty(2) != 0)
        let json = arguments.has("json")
        let started = Date()
        var runs: [CorpusStability.Run] = []
        for load in grid.loads {
            let busy: BusyLoad
            do { busy = try BusyLoad(count: load) } catch {
                stderrLine("racelab: harness failure: \(error.message)")
                return 1
            }
            defer { busy.stop() }
            if !json { print("racelab bench corpus: load \(load): \(BusyLoad.describe(load))") }
            for seed in grid.seeds {
                var grader = Grader(executable: childProgram, seed: seed, programName: program, root: root)
                grader.jobs = jobs
                let benchmark = CorpusBenchmark(
                    grader: grader, root: root, buildFolder: childProgram.deletingLastPathComponent(),
                    calibrations: CalibrationFile.read(packageAt: root))
                let condition = CorpusStability.Condition(seed: seed, load: load)
                let conditionStarted = Date()
                let entries = benchmark.run(labs) { live.show((grid.isGrid ? "[\(condition.name)] " : "") + $0) }
                live.clear()
                let run = CorpusStability.Run(
                    condition: condition, entries: entries, seconds: Date().timeIntervalSince(conditionStarted))
                runs.append(run)
                if !json {
                    print(
                        "racelab bench corpus: \(entries.count) fix(es) of \(labs.count) lab(s), graded as exercises, base seed \(seed), load \(load)\n"
                    )
                    print(CorpusBenchmark.table(entries, seconds: run.seconds) + "\n")
                }
            }
        }
        let report = CorpusStability.Report(
            grid: grid, load: BusyLoad.unit, runs: runs, seconds: Date().timeIntervalSince(started))
        if json {
            print(Self.json(report))
        } else if grid.isGrid {
            print(CorpusStability.flipTable(runs, flips: report.flips))
            print(String(format: "\nWall time: %.0f s.", report.seconds))
        }
        let inaccurate = runs.flatMap(\.entries).contains { $0.falseAccept || $0.falseReject }
        return inaccurate || !report.flips.isEmpty ? 1 : 0
    }

    /// `racelab bench profile`: `racelab run --all --runs 2 --profile` (its --runs, --seed and --jobs
    /// passed on), with the profile also as Markdown, to paste in the docs.
    func profile(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        guard arguments.positionals.count == 1 else {
            throw UsageError(
                "bench profile takes no paths ('\(arguments.positionals[1])'); "
                    + "usage: racelab bench profile [--runs N] [--seed S] [--jobs N]")
        }
        if let other = ["labs", "seeds", "load", "user-root"].first(where: { arguments.string($0) != nil })
            ?? (arguments.has("json") ? "json" : nil)
        {
            throw UsageError("bench profile takes --runs, --seed and --jobs only, not --\(other)")
        }
        // Checked here as run checks them, so a bad one names bench profile's own default.
        let runs = try arguments.int("runs", in: 1...10_000) ?? 2
        var words = ["--all", "--runs", String(runs), "--profile"]
        if let seed = try arguments.uint64("seed") { words += ["--seed", String(seed)] }
        if let jobs = try arguments.int("jobs", in: 1...64) { words += ["--jobs", String(jobs)] }
        return try run(ParsedArguments(words, spec: Self.runSpec), profileAsMarkdown: true)
    }

    /// The labs of --labs (default all) that have a grading corpus in this build.
    func corpusLabs(_ arguments: ParsedArguments) throws(UsageError) -> [Lab] {
        let labs = try labList(arguments.string("labs")).filter { $0.variants.contains(where: \.kind.isCorpus) }
        guard !labs.isEmpty else {
            throw UsageError(
                "no grading corpus in this build (Tests/GradingCorpus, registered in Sources/CorpusCatalog); a student kit has none"
            )
        }
        return labs
    }

    /// `racelab bench agreement`: every corpus fix judged as `racelab check` and as `racelab
    /// grade` judge an exercise (GraderAgreement); exit 1 when any pass/fail verdict differs.
    func agreement(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        if let other = ["seeds", "load", "jobs"].first(where: { arguments.string($0) != nil })
            ?? (arguments.has("json") ? "json" : nil)
        {
            throw UsageError(
                "bench agreement takes --labs and --seed only (it sets up check and grade as they set themselves up), not --\(other)"
            )
        }
        let seed = try arguments.uint64("seed") ?? UInt64.random(in: 1...999_999)
        let root = try requireRoot()
        try requireTSan()
        let labs = try corpusLabs(arguments)
        let check = Grader.forCheck(
            executable: childProgram, seed: seed, programName: program, root: root, jobs: nil, environment: environment)
        let grade = Grader.forGrade(
            executable: childProgram, seed: seed &+ GraderAgreement.gradeSeedOffset, programName: program, root: root,
            jobs: nil, environment: environment)
        let corpus = CorpusBenchmark(
            grader: grade, root: root, buildFolder: childProgram.deletingLastPathComponent(),
            calibrations: CalibrationFile.read(packageAt: root))
        let live = ProgressLine(enabled: isatty(2) != 0)
        let started = Date()
        let rows = GraderAgreement(check: check, grade: grade, corpus: corpus).run(labs) { live.show($0) }
        live.clear()
        print(
            "racelab bench agreement: \(rows.count) fix(es) of \(labs.count) lab(s); as check: seed \(check.seed), \(check.jobs) children at once, "
                + "one fix at a time; as grade: seed \(grade.seed), \(grade.jobs) at once, a lab's fixes together\n")
        print(GraderAgreement.table(rows, seconds: Date().timeIntervalSince(started)))
        return rows.allSatisfy(\.agree) ? 0 : 1
    }

    /// `racelab bench learners PATH...`: the class's minutes per lab, in the learning path's order.
    func learners(_ paths: [String]) throws(UsageError) -> Int32 {
        guard !paths.isEmpty else {
            throw UsageError(
                "bench learners needs progress files or folders of students' kits, e.g. racelab bench learners submissions/"
            )
        }
        let collection: LearnerMinutes.Collection
        do { collection = try LearnerMinutes.collect(paths) } catch { throw UsageError(error.description) }
        for problem in collection.skipped { stderrLine("racelab: skipped: \(problem)") }
        let rows = LearnerMinutes.rows(labs: try registry.ids, progresses: collection.files.map(\.progress))
        print("racelab bench learners: minutes per lab, measured on the learners whose progress files were given\n")
        print(LearnerMinutes.table(rows, students: collection.files.count))
        return 0
    }

    /// `racelab bench explain LOG... --user-root DIR`: is every report of each log explained, under
    /// TSan's own title, with every line of the program's own code its stacks start at?
    func explainCoverage(_ paths: [String], _ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        guard let root = arguments.string("user-root"), !root.isEmpty else {
            throw UsageError(
                "bench explain needs --user-root DIR, the folder the programs' sources were in, e.g. racelab bench explain logs/*.log --user-root /work/foreign"
            )
        }
        if let other = ["labs", "seed", "seeds", "load", "jobs"].first(where: { arguments.string($0) != nil })
            ?? (arguments.has("json") ? "json" : nil)
        {
            throw UsageError("bench explain takes log files and --user-root only, not --\(other)")
        }
        guard !paths.isEmpty else {
            throw UsageError(
                "bench explain needs ThreadSanitizer log files, e.g. racelab bench explain logs/*.log --user-root DIR")
        }
        // Every file read before anything is printed: a missing one is a usage error.
        var logs: [(name: String, text: String)] = []
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError("cannot read '\(path)'; bench explain takes ThreadSanitizer log files")
            }
            logs.append((URL(fileURLWithPath: path).lastPathComponent, String(decoding: data, as: UTF8.self)))
        }
        let rows = logs.map { log in
            (
                log: log.name,
                coverage: ExplanationCoverage.measure(
                    log: log.text, explanation: TSanExplainer.explain(log.text), userRoot: root)
            )
        }
        print("racelab bench explain: \(rows.count) log(s); the program's own code under \(root)\n")
        print(ExplanationCoverage.table(rows))
        return rows.allSatisfy(\.coverage.isComplete) ? 0 : 1
    }

    // MARK: calibrate

    func calibrate(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let labs = try labList(arguments.string("labs"))
        let root = try requireRoot()
        try requireTSan()
        var settings = Calibrator.Settings()
        settings.samples = try arguments.int("samples", in: 1...10_000) ?? settings.samples
        settings.iterationCap = try arguments.int("cap", in: 1...1_000_000) ?? settings.iterationCap
        settings.seed = try arguments.uint64("seed") ?? settings.seed
        settings.jobs = try jobs(arguments)
        var file = CalibrationFile.read(packageAt: root) ?? CalibrationFile(labs: [])
        let live = ProgressLine(enabled: isatty(2) != 0)
        let policy = GradingPolicy()
        for lab in labs {
            guard
                let calibration = Calibrator.measure(
                    lab, executable: childProgram, settings: settings, onRun: { live.show("\(lab.id): \($0)") })
            else {
                live.clear()
                print("\(lab.id): no broken variant, nothing to measure")
                continue
            }
            live.clear()
            file = file.replacing(calibration)
            let plan = StressPlan.make(lab, calibration: calibration, policy: policy)
            print("\(lab.id): \(calibration.summary)")
            print(
                "  stress pass: \(plan.runs) x \(plan.iterationsPerRun) iterations (needed for a chance below \(String(format: "%g", policy.target)): \(plan.iterationsNeeded.map(String.init) ?? "-") in all); chance an unfixed exercise passes: \(plan.chanceText)"
            )
        }
        do { try file.write(packageAt: root) } catch {
            stderrLine("racelab: cannot write \(CalibrationFile.relativePath): \(error.localizedDescription)")
            return 1
        }
        print("written: \(root.appendingPathComponent(CalibrationFile.relativePath).path)")
        return 0
    }
}
