import CRaceLabSupport
import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness
import TSanReports

/// `racelab bench`'s declaration: its options (each benchmark takes some of them), each read by
/// its symbol.
enum BenchCommand {
    static let labs = CommonOptions.labs
    static let seed = CommonOptions.seed
    static let seeds = CorpusStability.seedsOption
    static let runs = Option.number(
        "runs", "R",
        "stress: runs per series and way (default 100); profile: children per variant and mode (default 2)",
        in: 1...100_000)
    static let load = CorpusStability.loadOption
    static let jobs = CommonOptions.jobs
    static let json = Flag("json", "corpus: every condition's grades and the flips, as JSON")
    static let userRoot = Option.text(
        "user-root", "DIR", "explain: the folder the logs' programs were built from (their own code)")

    static let spec = CommandSpec(
        name: "bench", arguments: "corpus|agreement|learners|explain|stress|profile [PATH...]",
        positionals: 1...10_000,
        summary:
            "how well RaceLab judges and explains: corpus (right and wrong fixes), agreement (check beside grade), "
            + "learners (minutes per lab), explain (TSan logs explained whole), stress (how soon racelab stress shows "
            + "a list of programs' bugs, beside plain runs); and how fast: profile (where a run's time goes)",
        options: [labs, seed, seeds, runs, load, jobs, json, userRoot],
        details: """
            bench corpus: grade the grading corpus (Tests/GradingCorpus): valid fixes must score full marks, wrong
              ones nothing; an accuracy table, and with several --seeds or --load conditions the files whose
              verdict flips. Exit 1 on any false accept, false reject or flip.
            bench agreement: every corpus fix judged as check (seed S) and as grade (seed S+1000000) would;
              the pass/fail disagreements.
            bench learners PATH...: minutes per lab on real learners, from their progress files
              (.racelab/progress.json; a folder: its own and each sub-folder's).
            bench explain LOG... --user-root DIR: for each ThreadSanitizer log, whether racelab explain counts
              every report, shows each under the title TSan printed, and names every line of the program's own
              code (under DIR) its stacks start at. Exit 1 when any log is not explained whole.
            bench profile: racelab run --all --runs 2 --profile (--runs, --seed and --jobs passed on), the
              profile also as a Markdown table to paste in the docs (racelab help run: what each column means).
            """)

    /// The first of `options` given, for a benchmark that takes none of them.
    static func firstGiven(_ options: [any DeclaredOption], in arguments: ParsedArguments) -> String? {
        options.first(where: arguments.isGiven)?.declaration.name
    }
}

/// `racelab calibrate`'s declaration.
enum CalibrateCommand {
    static let labs = CommonOptions.labs
    static let samples = Option.number("samples", "N", "stress runs per lab (default 40)", in: 1...10_000)
    static let cap = Option.number("cap", "ITERATIONS", "the most iterations one run may take", in: 1...1_000_000)
    static let seed = CommonOptions.seed
    static let jobs = CommonOptions.jobs
    static let spec = CommandSpec(
        name: "calibrate",
        summary:
            "measure how fast each broken variant is caught under stress, into Grading/calibration.json (the grader's stress plans come from it)",
        options: [labs, samples, cap, seed, jobs])
}

/// The commands that measure the grader: bench (corpus, agreement, learners, explain, profile;
/// stress: StressCommand.swift) and calibrate. Thin: the work is done by CorpusBenchmark,
/// CorpusStability, GraderAgreement, StressCalibration, ExplanationCoverage, and `racelab run`
/// with ProfileTable.
extension RaceLabCommandLine {
    // MARK: bench

    func bench(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let which = arguments.positionals[0]
        let paths = Array(arguments.positionals.dropFirst())
        switch which {
        case "learners": return try learners(paths)
        case "explain": return try explainCoverage(paths, arguments)
        case "stress": return try stressBenchmark(paths, arguments)
        case "profile": return try profile(arguments)
        case "corpus", "agreement": break
        default:
            throw UsageError(
                "unknown benchmark '\(which)'; valid: corpus, agreement, learners, explain, stress, profile")
        }
        if let runs = arguments.text(of: BenchCommand.runs) {
            throw UsageError("--runs is for bench stress and bench profile, not bench \(which) ('\(runs)')")
        }
        if let root = try arguments[BenchCommand.userRoot] {
            throw UsageError("--user-root is for bench explain, not bench \(which) ('\(root)')")
        }
        guard paths.isEmpty else {
            throw UsageError("bench \(which) takes no paths ('\(paths[0])'); usage: \(BenchCommand.spec.usage)")
        }
        return which == "agreement" ? try agreement(arguments) : try corpus(arguments)
    }

    /// `racelab bench corpus`: the grading corpus graded under each condition of the grid
    /// (`--seeds`, `--load`); exit 1 on any false accept, false reject or flip.
    func corpus(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        // Every value checked before any work (a bad one: one line, exit status 2).
        let grid = try CorpusStability.Grid(arguments, randomSeed: UInt64.random(in: 1...999_999))
        let jobs = try jobs(arguments)
        let root = try requireRoot()
        try requireTSan()
        let labs = try corpusLabs(arguments)
        let live = ProgressLine(enabled: isatty(2) != 0)
        let json = arguments[BenchCommand.json]
        let started = Date()
        let runs: [CorpusStability.Run]
        do {
            runs = try CorpusStability.run(
                grid,
                onLoad: { load in
                    if !json { print("racelab bench corpus: load \(load): \(BusyLoad.describe(load))") }
                },
                grade: { condition in
                    var grader = Grader(
                        executable: childProgram, seed: condition.seed, programName: program, root: root)
                    grader.jobs = jobs
                    let benchmark = CorpusBenchmark(
                        grader: grader, root: root, buildFolder: childProgram.deletingLastPathComponent(),
                        calibrations: CalibrationFile.read(packageAt: root))
                    let entries = benchmark.run(labs) { live.show((grid.isGrid ? "[\(condition.name)] " : "") + $0) }
                    live.clear()
                    return entries
                },
                onRun: { run in
                    guard !json else { return }
                    print(
                        "racelab bench corpus: \(run.entries.count) fix(es) of \(labs.count) lab(s), graded as exercises, base seed \(run.condition.seed), load \(run.condition.load)\n"
                    )
                    print(CorpusBenchmark.table(run.entries, seconds: run.seconds) + "\n")
                })
        } catch {
            stderrLine("racelab: harness failure: \(error.message)")
            return 1
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
        if let other = BenchCommand.firstGiven(
            [BenchCommand.labs, BenchCommand.seeds, BenchCommand.load, BenchCommand.userRoot, BenchCommand.json],
            in: arguments)
        {
            throw UsageError("bench profile takes --runs, --seed and --jobs only, not --\(other)")
        }
        // Checked here as run checks them, so a bad one names bench profile's own default.
        let runs = try arguments[RunCommand.runs] ?? 2
        var words = ["--all", "--runs", String(runs), "--profile"]
        if let seed = try arguments[RunCommand.seed] { words += ["--seed", String(seed)] }
        if let jobs = try arguments[RunCommand.jobs] { words += ["--jobs", String(jobs)] }
        return try run(ParsedArguments(words, spec: RunCommand.spec), profileAsMarkdown: true)
    }

    /// The labs of --labs (default all) that have a grading corpus in this build.
    func corpusLabs(_ arguments: ParsedArguments) throws(UsageError) -> [Lab] {
        let labs = try labList(try arguments[BenchCommand.labs]).filter { $0.variants.contains(where: \.kind.isCorpus) }
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
        if let other = BenchCommand.firstGiven(
            [BenchCommand.seeds, BenchCommand.load, BenchCommand.jobs, BenchCommand.json], in: arguments)
        {
            throw UsageError(
                "bench agreement takes --labs and --seed only (it sets up check and grade as they set themselves up), not --\(other)"
            )
        }
        let seed = try arguments[BenchCommand.seed] ?? UInt64.random(in: 1...999_999)
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
        guard let root = try arguments[BenchCommand.userRoot], !root.isEmpty else {
            throw UsageError(
                "bench explain needs --user-root DIR, the folder the programs' sources were in, e.g. racelab bench explain logs/*.log --user-root /work/foreign"
            )
        }
        if let other = BenchCommand.firstGiven(
            [
                BenchCommand.labs, BenchCommand.seed, BenchCommand.seeds, BenchCommand.load, BenchCommand.jobs,
                BenchCommand.json
            ], in: arguments)
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
        let labs = try labList(try arguments[CalibrateCommand.labs])
        let root = try requireRoot()
        try requireTSan()
        var settings = Calibrator.Settings()
        settings.samples = try arguments[CalibrateCommand.samples] ?? settings.samples
        settings.iterationCap = try arguments[CalibrateCommand.cap] ?? settings.iterationCap
        settings.seed = try arguments[CalibrateCommand.seed] ?? settings.seed
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
