import CRaceLabSupport
import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness

/// The instructor's grading commands: grade and grade-all. Thin: the work is done by Grader and
/// ClassGrader.
extension RaceLabCommandLine {
    // MARK: grade

    func grade(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        try checkOutput(file: arguments.string("output"), option: "--output", what: "the report")
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
        let shard = try classShard(arguments)
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
        let all = prepareOnly ? [] : SubmissionFolder.entries(in: submissions)
        let entries = shard?.share(of: all) ?? all
        guard prepareOnly || !all.isEmpty else {
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
        try checkOutput(folder: output, option: "--output", what: "reports")
        if let workspace, let problem = OutputFile.problem(writingInto: workspace) {
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
        let share = shard.map { "shard \($0): \(entries.count) of \(all.count)" } ?? "\(entries.count)"
        stderrLine(
            "racelab grade-all: "
                + (prepareOnly ? "preparing the workspace" : "\(share) submission(s) in \(submissions.path)")
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
        // Which shard this folder is, before any grade: grade-merge reads it.
        if let shard {
            let record = ClassShardRecord(shard: shard, grader: grader, labs: labIDs, all: all)
            do { try record.write(into: output) } catch {
                stderrLine("racelab: harness failure: cannot write \(ClassShardRecord.fileName) into \(output.path)")
                return 1
            }
        }
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
        print(
            "racelab grade-all: " + (shard.map { "shard \($0): " } ?? "")
                + "\(results.count) submission(s); summary \(summary.path)"
                + (shard == nil ? "" : " (racelab grade-merge puts every shard's folder together)"))
        let errors = results.filter { $0.status == .error }
        if !errors.isEmpty {
            stderrLine("racelab: harness failure for \(errors.map(\.student).joined(separator: ", ")): see summary.csv")
            return 1
        }
        return 0
    }

    /// `--shard K/N` of grade-all, checked before anything else: every shard must grade with
    /// the one seed (grade-merge refuses shards that differ), so it must be given.
    func classShard(_ arguments: ParsedArguments) throws(UsageError) -> ClassShard? {
        guard let text = arguments.string("shard") else { return nil }
        let shard: ClassShard
        do { shard = try ClassShard.parse(text) } catch { throw UsageError(error.description) }
        guard !arguments.has("prepare") else {
            throw UsageError("--shard grades part of a class and --prepare grades nothing: give one or the other")
        }
        guard arguments.string("seed") != nil else {
            throw UsageError(
                "--shard \(shard) needs --seed S, the same in every shard (their grades must be comparable)")
        }
        return shard
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
}
