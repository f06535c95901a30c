import CRaceLabSupport
import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness

/// The student and instructor commands: check, hint, progress, grade, grade-all, export,
/// calibrate. Thin: the work is done by Grader, StudentKit, ClassGrader and friends.
extension RaceLabCommandLine {
    // MARK: Shared

    var packageRoot: URL? { PackageRoot.locate(try? registry) }

    func requireRoot() throws(UsageError) -> URL {
        guard let root = packageRoot else {
            throw UsageError(
                "cannot find the package's sources (a folder with Package.swift and Labs/); run racelab from inside the package"
            )
        }
        return root
    }

    /// What every command that judges races says of a racelab built without TSan (one place).
    static let builtWithoutTSan =
        "this racelab was built without ThreadSanitizer, so it cannot judge races: build it with `make build` (swift build --sanitize=thread)"

    func requireTSan() throws(UsageError) {
        guard rl_tsan_enabled() != 0 else { throw UsageError(Self.builtWithoutTSan) }
    }

    func labList(_ text: String?) throws(UsageError) -> [Lab] {
        guard let text else { return try registry.labs }
        var labs: [Lab] = []
        for id in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !id.isEmpty {
            labs.append(try lab(id))
        }
        guard !labs.isEmpty else {
            throw UsageError(
                "--labs needs lab ids, e.g. --labs \(try registry.ids.prefix(2).joined(separator: ",")); valid: \(try registry.ids.joined(separator: ", "))"
            )
        }
        return labs
    }

    func format(_ arguments: ParsedArguments) throws(UsageError) -> GradeFormat {
        try arguments.choice("format", from: GradeFormat.allCases.map(\.rawValue)).flatMap(GradeFormat.init(rawValue:))
            ?? .text
    }

    /// How reproduce commands name racelab: as invoked, but relative to the package when the
    /// binary is inside it (grade-all runs a scratch copy that is gone by the time anyone reads
    /// the report; `.build/debug/racelab` works in the student's own copy).
    var program: String {
        let invoked = CommandLine.arguments.first ?? "racelab"
        guard invoked.hasPrefix("/"), let root = packageRoot else { return invoked }
        let relative = PackageRoot.relative(invoked, to: root)
        return relative == invoked ? invoked : relative
    }

    // MARK: check

    func check(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let lab = try lab(arguments.positionals[0])
        guard let variant = Grader.exercise(of: lab) else {
            throw UsageError("lab '\(lab.id)' has no exercise variant to check")
        }
        try requireTSan()
        let root = packageRoot
        if let failed = rebuildIfExerciseChanged(lab) { return failed }
        // One lab's children, mostly waiting (holds, quiet periods, run loops): all of them at
        // once, unless --jobs or RACELAB_JOBS says otherwise (bench agreement sets it up the same).
        let grader = Grader.forCheck(
            executable: childProgram, seed: try arguments.uint64("seed") ?? UInt64.random(in: 1...999_999),
            programName: program, root: root, jobs: try arguments.int("jobs", in: 1...64), environment: environment)
        // The warnings hash the whole kit against its manifest (about 2 s in a debug TSan build):
        // worked out beside the passes, whose children mostly wait, not before them.
        let warnings = BackgroundResult { [childProgram] in
            StudentFeedback.warnings(for: lab, root: root, executable: childProgram)
        }
        let progressLine = ProgressLine(enabled: isatty(2) != 0)
        let rejections = ExerciseChecks.rejections(
            of: [lab], root: root,
            buildFolder: childProgram.deletingLastPathComponent())
        let grade: LabGrade
        if let violations = rejections[lab.id] {
            let plan = StressPlan.make(
                lab, calibration: root.flatMap(CalibrationFile.read(packageAt:))?.current(for: lab),
                policy: grader.policy)
            grade = grader.rejected(lab, variant: variant, stress: plan, violations: violations)
        } else {
            let (plan, _) = grader.stressPlan(
                for: lab, calibrations: root.flatMap(CalibrationFile.read(packageAt:)), measureIfMissing: true,
                onProgress: progressLine.show)
            grade = grader.grade(lab, variant: variant, stress: plan, onProgress: progressLine.show)
        }
        progressLine.clear()
        print(
            StudentFeedback.render(
                grade, seed: grader.seed, warnings: warnings.value, hintCount: LessonHints.hints(for: lab).count))
        if let note = PlatformChecks.here.note { print(note) }
        let isolation = ChildIsolation.probe(executable: childProgram)
        if !isolation.isComplete {
            // The grader's isolation does not change a verdict; but say where it is missing.
            print("Note: this machine does not isolate the runs as the grader does: \(isolation.summary)")
        }
        if let root {
            let check = StudentProgress.Check(
                passing: grade.status == .passed, score: grade.score, maxScore: grade.maxScore,
                exerciseHash: StudentProgress.exerciseHash(of: lab, root: root),
                checkedAt: Self.shortDate(Date()), seed: grader.seed)
            recordProgress(root: root) { progress in
                progress.checks[lab.id] = check
                progress.checked(lab.id, passing: check.passing, at: Date())
            }
        }
        if let failure = grade.passes.compactMap(\.harnessFailure).first {
            stderrLine("racelab: harness failure: \(failure)")
        }
        return grade.status == .passed ? 0 : 1
    }

    /// An exercise edited since the lab program was built would be judged as it was: build it
    /// again first (what `make build` does; a no-op when nothing really changed). The status to
    /// exit with when the build failed (its log shown), nil to go on.
    func rebuildIfExerciseChanged(_ lab: Lab) -> Int32? {
        guard let root = packageRoot else { return nil }
        let stale = StudentFeedback.staleExercises(of: lab, root: root, executable: childProgram)
        if !stale.isEmpty {
            stderrLine("racelab: \(stale.joined(separator: ", ")) changed since the last build: building first")
        }
        guard let result = ChildBuilder(tree: root).rebuild(forChanged: stale), !result.succeeded else { return nil }
        print(ChildBuilder.errorLines(of: result.log))
        stderrLine(
            "racelab: the build failed\(result.timedOut ? " (timed out)" : ""): fix the errors above, then run racelab \(CommandLine.arguments.dropFirst().first ?? "check") again"
        )
        return 1
    }

    static func shortDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    // MARK: hint

    func hint(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let lab = try lab(arguments.positionals[0])
        let hints = LessonHints.hints(for: lab)
        guard !hints.isEmpty else {
            print("\(lab.id) has no hints; its lesson is \(lab.info.lessonFile.path)")
            return 0
        }
        let root = packageRoot
        if arguments.has("reset") {
            recordProgress(root: root) { $0.hintsShown[lab.id] = 0 }
            print("Hints for \(lab.id) start again from the first.")
            return 0
        }
        // The count goes up under the progress file's lock, so hints asked for at once each count.
        var shown = 1
        recordProgress(root: root) { progress in
            shown = min((progress.hintsShown[lab.id] ?? 0) + 1, hints.count)
            progress.hintsShown[lab.id] = shown
            progress.hinted(lab.id, at: Date())
        }
        print("Hint \(shown) of \(hints.count) for \(lab.id):\n")
        print(hints[shown - 1])
        print("")
        if shown < hints.count {
            print(
                "`racelab hint \(lab.id)` again for the next one (they get more direct). Check your code: `racelab check \(lab.id)`."
            )
        } else {
            print(
                "That was the last hint. The whole story is in \(PackageRoot.relative(lab.info.lessonFile.path, to: root ?? URL(fileURLWithPath: "/"))); `--reset` starts over."
            )
        }
        return 0
    }

    /// Changes the student's progress file under its lock; a problem with it is a warning, never
    /// a reason to fail the command.
    func recordProgress(root: URL?, _ change: (inout StudentProgress) -> Void) {
        do {
            let (_, warning) = try StudentProgress.update(
                at: StudentProgress.file(packageAt: root, environment: environment), change)
            if let warning { stderrLine("racelab: warning: \(warning)") }
        } catch {
            stderrLine("racelab: warning: progress not saved: \(error.localizedDescription)")
        }
    }

    // MARK: progress

    func progress(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let root = try requireRoot()
        let file = StudentProgress.file(packageAt: root, environment: environment)
        var progress = StudentProgress()
        switch StudentProgress.read(from: file) {
        case .fresh(let value): progress = value
        case .corrupt(let problem): stderrLine("racelab: warning: \(problem)")
        }
        let rows = progress.rows(try registry, root: root, manifest: KitManifest.read(packageAt: root))
        print(StudentProgress.render(rows))
        return 0
    }

    // MARK: grade

    func grade(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let labs = try labList(arguments.string("labs"))
        let format = try format(arguments)
        if let path = arguments.string("from") {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), let saved = GradeJSON.decode(text)
            else {
                throw UsageError(
                    "cannot read '\(path)' as a grade report: give a file written by racelab grade --format json")
            }
            return try write(saved, format: format, to: arguments.string("output"))
        }
        let seed = try arguments.uint64("seed") ?? UInt64.random(in: 1...999_999)
        if let output = arguments.string("output"), let problem = OutputFile.problem(writing: output) {
            throw UsageError("cannot write the report: \(problem)")
        }
        var trusted: KitManifest?
        if let path = arguments.string("manifest") {
            do { trusted = try KitManifest.read(from: URL(fileURLWithPath: path)) } catch {
                throw UsageError(
                    "cannot read the manifest '\(path)': give the racelab-kit.json written by racelab export")
            }
        }
        let root = packageRoot
        let integrity = Grader.integrity(of: root, trusted: trusted)
        if integrity.status != .tampered && rl_tsan_enabled() == 0 {
            stderrLine("racelab: harness failure: " + Self.builtWithoutTSan)
            return 1
        }
        // Set up as bench agreement sets up its "grade" side.
        let grader = Grader.forGrade(
            executable: childProgram, partialCredit: arguments.has("partial-credit"), seed: seed,
            programName: program, root: root, jobs: try arguments.int("jobs", in: 1...64), environment: environment)
        let progressLine = ProgressLine(enabled: isatty(2) != 0)
        let rejections = ExerciseChecks.rejections(
            of: labs, root: root,
            buildFolder: childProgram.deletingLastPathComponent())
        let calibrations = root.flatMap(CalibrationFile.read(packageAt:))
        var preset: [String: LabGrade] = [:]
        for lab in labs {
            guard let violations = rejections[lab.id], let variant = Grader.exercise(of: lab) else { continue }
            let plan = StressPlan.make(lab, calibration: calibrations?.current(for: lab), policy: grader.policy)
            preset[lab.id] = grader.rejected(lab, variant: variant, stress: plan, violations: violations)
        }
        var report = grader.report(
            labs: labs, integrity: integrity, calibrations: calibrations,
            command: CommandLine.arguments.joined(separator: " "), student: arguments.string("student"),
            preset: preset, onProgress: progressLine.show)
        report.notes.append(ChildIsolation.probe(executable: childProgram).summary)
        progressLine.clear()
        if try write(report, format: format, to: arguments.string("output")) != 0 {
            return 1
        }
        if let failure = report.harnessFailure {
            stderrLine("racelab: harness failure: \(failure)")
            return 1
        }
        if arguments.has("fail-unless-full") && report.score < report.maxScore {
            stderrLine(
                "racelab grade: \(Grader.points(report.score))/\(Grader.points(report.maxScore)), not full marks (exit 1, --fail-unless-full)"
            )
            return 1
        }
        return 0
    }

    /// The report in `format`, to `output` (a one-line summary on stdout) or to stdout.
    func write(_ report: GradeReport, format: GradeFormat, to output: String?) throws(UsageError) -> Int32 {
        guard let output else {
            print(format.render(report))
            return 0
        }
        do { try OutputFile.write(format.render(report), to: output) } catch {
            stderrLine(
                "racelab: harness failure: cannot write the report to '\(output)': \(error.localizedDescription)")
            return 1
        }
        print(
            "racelab: graded \(report.labs.count) lab(s): \(Grader.points(report.score))/\(Grader.points(report.maxScore)), kit check \(report.integrity.status.rawValue); \(format.rawValue) report written to \(output)"
        )
        return 0
    }

    // MARK: grade-all

    func gradeAll(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let workspace = arguments.string("workspace").map { URL(fileURLWithPath: $0).standardizedFileURL }
        let prepareOnly = arguments.has("prepare")
        if prepareOnly {
            guard workspace != nil, arguments.positionals.isEmpty else {
                throw UsageError(
                    "--prepare builds the kit into a kept workspace for later runs: give --workspace DIR and --kit KIT, and no submissions"
                )
            }
        } else if arguments.positionals.isEmpty {
            throw UsageError(
                "which submissions? give a folder with one sub-folder per student (or --prepare --workspace DIR to build the kit only)"
            )
        }
        let submissions = URL(fileURLWithPath: arguments.positionals.first ?? ".").standardizedFileURL
        let entries = prepareOnly ? [] : SubmissionFolder.entries(in: submissions)
        guard prepareOnly || !entries.isEmpty else {
            throw UsageError("no submissions in '\(submissions.path)': give a folder with one sub-folder per student")
        }
        let kit: URL
        if let given = arguments.string("kit") {
            kit = URL(fileURLWithPath: given).standardizedFileURL
        } else if let root = packageRoot, KitManifest.read(packageAt: root) != nil {
            kit = root
        } else {
            throw UsageError(
                "grade-all needs the kit the students were given: --kit DIR (the folder racelab export wrote)")
        }
        // Everything checked before anything is built or created (bad usage loses nothing).
        guard let manifest = KitManifest.read(packageAt: kit) else {
            throw UsageError(
                "no readable \(KitManifest.fileName) in '\(kit.path)': give --kit the folder racelab export wrote")
        }
        let labs = try arguments.string("labs").map { text throws(UsageError) in
            try kitLabList(text, manifest: manifest)
        }
        let output = URL(fileURLWithPath: arguments.string("output") ?? "grades").standardizedFileURL
        if let problem = Self.folderProblem(output) {
            throw UsageError(
                "cannot write reports into '\(output.path)': \(problem); give --output a folder you can write")
        }
        if let workspace, let problem = Self.folderProblem(workspace) {
            throw UsageError("cannot use the workspace '\(workspace.path)': \(problem)")
        }
        var settings = ClassGrader.Settings(
            submissions: submissions, kit: kit, output: output, format: try format(arguments),
            labs: labs, seed: try arguments.uint64("seed") ?? UInt64.random(in: 1...999_999))
        settings.keep = arguments.has("keep")
        settings.partialCredit = arguments.has("partial-credit")
        settings.jobs = try jobs(arguments)
        settings.workspace = workspace
        if let swift = environment["SWIFT"] { settings.swift = swift }
        if environment["RACELAB_UNSAFE_SKIP_EXERCISE_CHECKS"] == "1" {
            settings.exerciseChecks = false
            stderrLine(
                "racelab grade-all: WARNING: the exercise checks are OFF (RACELAB_UNSAFE_SKIP_EXERCISE_CHECKS=1); for testing the harness only"
            )
        }
        if !prepareOnly {
            do {
                try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
                try Data().write(to: output.appendingPathComponent(".racelab-write-check"))
                try FileManager.default.removeItem(at: output.appendingPathComponent(".racelab-write-check"))
            } catch {
                throw UsageError(
                    "cannot write reports into '\(output.path)': \(error.localizedDescription); give --output a folder you can write"
                )
            }
        }
        let grader: ClassGrader
        do { grader = try ClassGrader(settings: settings) } catch { throw UsageError(error.description) }
        defer { grader.cleanUp() }
        let live = ProgressLine(enabled: isatty(2) != 0)
        stderrLine(
            "racelab grade-all: "
                + (prepareOnly ? "preparing the workspace" : "\(entries.count) submission(s) in \(submissions.path)")
                + "; kit \(kit.path) (manifest \(grader.trusted.digest.prefix(12))); seed \(settings.seed); reports in \(output.path)"
        )
        do {
            try grader.prepare { live.phase("setup", $0) }
        } catch {
            live.clear()
            stderrLine("racelab: harness failure: \(error.description)")
            return 1
        }
        live.clear()
        if prepareOnly {
            print(
                "racelab grade-all: the kit is built in \(grader.workspacePath) (\(grader.registry.labs.count) labs); grade-all --workspace \(grader.workspacePath) rebuilds only each submission's exercises"
            )
            return 0
        }
        if let ids = labs, let unknown = ids.first(where: { grader.registry.lab($0) == nil }) {
            throw UsageError(
                "unknown lab '\(unknown)' in --labs; the kit's labs: \(grader.registry.ids.joined(separator: ", "))")
        }
        stderrLine("racelab grade-all: " + ChildIsolation.probe(executable: grader.kitProgram).summary)
        let labIDs = labs ?? grader.registry.ids
        let summary = output.appendingPathComponent("summary.csv")
        // summary.csv grows as students finish, so whatever stops this run, the grades given
        // so far are on disk.
        let soFar = IndexedResults<ClassGrader.StudentResult>(count: entries.count)
        let results = grader.gradeAll(entries) { index, phase in
            live.phase("[\(index + 1)/\(entries.count)] \(entries[index].name)", phase)
        } onResult: { index, result in
            let score = result.report.map { "\(Grader.points($0.score))/\(Grader.points($0.maxScore))" } ?? "-"
            live.line(
                "[\(index + 1)/\(entries.count)] \(entries[index].name): \(result.status.rawValue.uppercased()) \(score) in \(ClassGrader.duration(result.elapsedSeconds))"
                    + (result.note.isEmpty ? "" : " (\(result.note))"))
            soFar.set(index, result)
            try? Data(ClassGrader.summaryCSV(soFar.finished, labs: labIDs).utf8).write(to: summary, options: .atomic)
        }
        live.clear()
        do { try Data(ClassGrader.summaryCSV(results, labs: labIDs).utf8).write(to: summary, options: .atomic) } catch {
            stderrLine("racelab: harness failure: cannot write \(summary.path): \(error.localizedDescription)")
            return 1
        }
        print("racelab grade-all: \(results.count) submission(s); summary \(summary.path)")
        let errors = results.filter { $0.status == .error }
        if !errors.isEmpty {
            stderrLine("racelab: harness failure for \(errors.map(\.student).joined(separator: ", ")): see summary.csv")
            return 1
        }
        return 0
    }

    /// `--labs` of grade-all: ids this racelab knows, or whose folder the kit's manifest lists
    /// (a kit may come from another version), at least one.
    func kitLabList(_ text: String, manifest: KitManifest) throws(UsageError) -> [String] {
        let ids = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let known = Set((try? registry.ids) ?? []).union(manifest.labFolders.map(KitManifest.labID(folder:)))
        guard !ids.isEmpty else {
            throw UsageError(
                "--labs needs lab ids, e.g. --labs list-adder,ui-off-main; the kit's labs: \(known.sorted().joined(separator: ", "))"
            )
        }
        if let unknown = ids.first(where: { !known.contains($0) }) {
            throw UsageError(
                "unknown lab '\(unknown)' in --labs; the kit's labs: \(known.sorted().joined(separator: ", "))")
        }
        return ids
    }

    /// Why a folder cannot be written into or made (its parent missing or read-only), or nil.
    static func folderProblem(_ folder: URL) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { return "it is a file, not a folder" }
            return access(folder.path, W_OK) == 0 ? nil : "it is not writable"
        }
        let parent = folder.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            return "its parent folder '\(parent.path)' does not exist"
        }
        return access(parent.path, W_OK) == 0 ? nil : "its parent folder '\(parent.path)' is not writable"
    }

    // MARK: bench

    func bench(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let which = arguments.positionals[0]
        if which == "learners" { return try learners(Array(arguments.positionals.dropFirst())) }
        guard which == "corpus" || which == "agreement" else {
            throw UsageError("unknown benchmark '\(which)'; valid: corpus, agreement, learners")
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

    // MARK: export

    func export(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let root = try requireRoot()
        let labIDs = try registry.ids
        let workflow = ClassroomWorkflow(labs: labIDs, pointsPerLab: Int(GradingPolicy().pointsPerLab))
        if let zip = arguments.string("gradescope") {
            guard arguments.positionals.isEmpty else {
                throw UsageError("give either a kit folder or --gradescope FILE.zip, not both")
            }
            guard zip.hasSuffix(".zip") else {
                throw UsageError("--gradescope writes a zip: give a file name ending in .zip, not '\(zip)'")
            }
            if let problem = OutputFile.problem(writing: zip) {
                throw UsageError("cannot write the autograder: \(problem)")
            }
            let bundle: GradescopeAutograder.Summary
            do {
                bundle = try GradescopeAutograder.export(from: root, to: URL(fileURLWithPath: zip), workflow: workflow)
            } catch {
                throw UsageError(error.description)
            }
            print(
                "racelab export: Gradescope autograder \(zip): \(bundle.entries) files, \(bundle.bytes / 1024) KiB (setup.sh, run_autograder, kit/ with manifest \(bundle.kit.manifest.digest.prefix(12)))"
            )
            print(
                "  upload it as the assignment's autograder (Ubuntu 22.04 base image); students submit their kit folder (zip or GitHub)"
            )
            return 0
        }
        guard let folder = arguments.positionals.first else {
            throw UsageError("where to? racelab export DIR (a student kit) or racelab export --gradescope FILE.zip")
        }
        let destination = URL(fileURLWithPath: folder)
        let summary: StudentKit.Summary
        do { summary = try StudentKit.export(from: root, to: destination, workflow: workflow) } catch {
            throw UsageError(error.description)
        }
        print(
            "racelab export: student kit in \(summary.destination.path): \(summary.manifest.files.count) files, \(summary.manifest.editable.count) exercise file(s) students may edit"
        )
        print(
            "  left out (reference solutions): \(summary.solutionsLeftOut.isEmpty ? "none" : summary.solutionsLeftOut.joined(separator: ", "))"
        )
        print(
            "  GitHub Classroom: \(ClassroomWorkflow.path) grades each lab on every push (feedback: the student controls that repository; grade-all gives the marks)"
        )
        print(
            "  manifest: \(KitManifest.fileName), digest \(summary.manifest.digest.prefix(12)) (grade-all --kit \(summary.destination.path) checks submissions against it)"
        )
        let calibrations = CalibrationFile.read(packageAt: root)
        let missing = try registry.labs.filter { calibrations?.current(for: $0) == nil }.map(\.id)
        if !missing.isEmpty {
            print(
                "  note: no current stress calibration for \(missing.joined(separator: ", ")); grading will measure it each time (run racelab calibrate, then export again)"
            )
        }
        return 0
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
