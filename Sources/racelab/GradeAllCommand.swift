import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness

/// `racelab grade-all`'s declaration: its options, each read by its symbol.
enum GradeAllCommand {
    static let kit = Option.text("kit", "KIT", "the trusted kit (default: this package)")
    static let output = Option.text("output", "DIR", "where the reports go (default grades)")
    static let format = Option<GradeFormat>.choice(
        "format", "text|json|junit|gradescope", "each student's report format (default text)")
    static let labs = CommonOptions.labs
    static let seed = CommonOptions.seed
    static let jobs = CommonOptions.jobs
    static let workspace = Option.text("workspace", "DIR", "keep the kit's build there between runs")
    static let keep = Flag("keep", "keep the temporary workspace")
    static let partialCredit = Flag("partial-credit", "each clean pass scores")
    static let prepare = Flag(
        "prepare", "build the kit into --workspace only (an autograder's set-up), grade nothing")
    static let shard = Option(
        "shard", "K/N",
        "grade only share K of N (the entries at places K, K+N, K+2N... of the sorted list), "
            + "for N runners at once; needs --seed; racelab grade-merge puts the shards together"
    ) { text throws(UsageError) in
        do throws(ClassShard.InvalidError) { return try ClassShard.parse(text) } catch {
            throw UsageError(error.description)
        }
    }

    static let spec = CommandSpec(
        name: "grade-all", arguments: "[SUBMISSIONS]", positionals: 0...1,
        summary:
            "grade a class: every sub-folder of SUBMISSIONS is one student's kit, each graded in a copy of the trusted kit",
        options: [kit, output, format, labs, seed, jobs, workspace, keep, partialCredit, prepare, shard])
}

/// What `racelab grade-all` was asked to do, read and checked before anything is built or
/// created (bad usage loses nothing).
struct GradeAllRequest {
    /// The submissions, the kit, where the reports go, and how to grade.
    var settings: ClassGrader.Settings
    /// `--prepare`: build the kit into the workspace, grade nothing.
    var prepareOnly: Bool
    var shard: ClassShard?
    /// Every submission, and those this run grades (its shard's share, or all of them).
    var all: [SubmissionFolder.Entry]
    var entries: [SubmissionFolder.Entry]
}

/// `racelab grade-all`: a class graded, one student's kit at a time. Thin: the work is done by
/// ClassGrader.
extension RaceLabCommandLine {
    func gradeAll(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let request = try gradeAllRequest(arguments)
        let settings = request.settings
        if !settings.exerciseChecks {
            stderrLine(
                "racelab grade-all: WARNING: the exercise checks are OFF (RACELAB_UNSAFE_SKIP_EXERCISE_CHECKS=1); for testing the harness only"
            )
        }
        if !request.prepareOnly {
            do { try OutputFile.makeWritableFolder(settings.output) } catch {
                throw UsageError(
                    "cannot write reports into '\(settings.output.path)': \(error.localizedDescription); give --output a folder you can write"
                )
            }
        }
        let grader: ClassGrader
        do { grader = try ClassGrader(settings: settings) } catch { throw UsageError(error.description) }
        defer { grader.cleanUp() }
        let live = ProgressLine(enabled: isatty(2) != 0)
        let share = request.shard.map { "shard \($0): \(request.entries.count) of \(request.all.count)" }
        stderrLine(
            "racelab grade-all: "
                + (request.prepareOnly
                    ? "preparing the workspace"
                    : "\(share ?? "\(request.entries.count)") submission(s) in \(settings.submissions.path)")
                + "; kit \(settings.kit.path) (manifest \(grader.trusted.digest.prefix(12))); seed \(settings.seed); reports in \(settings.output.path)"
        )
        do {
            try grader.prepare { live.phase("setup", $0) }
        } catch {
            live.clear()
            stderrLine("racelab: harness failure: \(error.description)")
            return 1
        }
        live.clear()
        if request.prepareOnly {
            print(
                "racelab grade-all: the kit is built in \(grader.workspacePath) (\(grader.registry.labs.count) labs); grade-all --workspace \(grader.workspacePath) rebuilds only each submission's exercises"
            )
            return 0
        }
        if let ids = settings.labs, let unknown = ids.first(where: { grader.registry.lab($0) == nil }) {
            throw UsageError(
                "unknown lab '\(unknown)' in --labs; the kit's labs: \(grader.registry.ids.joined(separator: ", "))")
        }
        stderrLine("racelab grade-all: " + ChildIsolation.probe(executable: grader.kitProgram).summary)
        return gradeClass(request, with: grader, live: live)
    }

    /// Every option read and checked, in the order a bad one is reported.
    func gradeAllRequest(_ arguments: ParsedArguments) throws(UsageError) -> GradeAllRequest {
        let workspace = try arguments[GradeAllCommand.workspace].map { URL(fileURLWithPath: $0).standardizedFileURL }
        let prepareOnly = arguments[GradeAllCommand.prepare]
        let shard = try classShard(arguments)
        let (submissions, all) = try submissions(arguments, prepareOnly: prepareOnly, workspace: workspace)
        let (kit, manifest) = try trustedKit(arguments)
        let labs = try arguments[GradeAllCommand.labs].map { text throws(UsageError) in
            try kitLabList(text, manifest: manifest)
        }
        let output = URL(fileURLWithPath: try arguments[GradeAllCommand.output] ?? "grades").standardizedFileURL
        try checkOutput(folder: output, option: "--output", what: "reports")
        if let workspace, let problem = OutputFile.problem(writingInto: workspace) {
            throw UsageError("cannot use the workspace '\(workspace.path)': \(problem)")
        }
        var settings = ClassGrader.Settings(
            submissions: submissions, kit: kit, output: output, format: try arguments[GradeAllCommand.format] ?? .text,
            labs: labs, seed: try arguments[GradeAllCommand.seed] ?? UInt64.random(in: 1...999_999))
        settings.keep = arguments[GradeAllCommand.keep]
        settings.partialCredit = arguments[GradeAllCommand.partialCredit]
        settings.jobs = try jobs(arguments)
        settings.workspace = workspace
        if let swift = environment["SWIFT"] { settings.swift = swift }
        settings.exerciseChecks = environment["RACELAB_UNSAFE_SKIP_EXERCISE_CHECKS"] != "1"
        return GradeAllRequest(
            settings: settings, prepareOnly: prepareOnly, shard: shard, all: all, entries: shard?.share(of: all) ?? all)
    }

    /// `--shard K/N` of grade-all, checked before anything else: every shard must grade with
    /// the one seed (grade-merge refuses shards that differ), so it must be given.
    func classShard(_ arguments: ParsedArguments) throws(UsageError) -> ClassShard? {
        guard let shard = try arguments[GradeAllCommand.shard] else { return nil }
        guard !arguments[GradeAllCommand.prepare] else {
            throw UsageError("--shard grades part of a class and --prepare grades nothing: give one or the other")
        }
        guard arguments.isGiven(GradeAllCommand.seed) else {
            throw UsageError(
                "--shard \(shard) needs --seed S, the same in every shard (their grades must be comparable)")
        }
        return shard
    }

    /// SUBMISSIONS and every entry in it (none with --prepare, which takes a kept workspace instead).
    func submissions(_ arguments: ParsedArguments, prepareOnly: Bool, workspace: URL?) throws(UsageError) -> (
        URL, [SubmissionFolder.Entry]
    ) {
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
        guard prepareOnly || !all.isEmpty else {
            throw UsageError("no submissions in '\(submissions.path)': give a folder with one sub-folder per student")
        }
        return (submissions, all)
    }

    /// `--kit` (default: this package, when it is a kit) and its manifest.
    func trustedKit(_ arguments: ParsedArguments) throws(UsageError) -> (URL, KitManifest) {
        let kit: URL
        if let given = try arguments[GradeAllCommand.kit] {
            kit = URL(fileURLWithPath: given).standardizedFileURL
        } else if let root = packageRoot, KitManifest.read(packageAt: root) != nil {
            kit = root
        } else {
            throw UsageError(
                "grade-all needs the kit the students were given: --kit DIR (the folder racelab export wrote)")
        }
        guard let manifest = KitManifest.read(packageAt: kit) else {
            throw UsageError(
                "no readable \(KitManifest.fileName) in '\(kit.path)': give --kit the folder racelab export wrote")
        }
        return (kit, manifest)
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

    /// The request's submissions graded with the prepared `grader`, summary.csv kept current as
    /// each finishes; exit 1 when the harness failed for any of them.
    func gradeClass(_ request: GradeAllRequest, with grader: ClassGrader, live: ProgressLine) -> Int32 {
        let output = request.settings.output
        let labIDs = request.settings.labs ?? grader.registry.ids
        // Which shard this folder is, before any grade: grade-merge reads it.
        if let shard = request.shard {
            let record = ClassShardRecord(shard: shard, grader: grader, labs: labIDs, all: request.all)
            do { try record.write(into: output) } catch {
                stderrLine("racelab: harness failure: cannot write \(ClassShardRecord.fileName) into \(output.path)")
                return 1
            }
        }
        let entries = request.entries
        let summary = ClassSummaryFile(in: output, labs: labIDs, count: entries.count)
        let results = grader.gradeAll(entries) { index, phase in
            live.phase("[\(index + 1)/\(entries.count)] \(entries[index].name)", phase)
        } onResult: { index, result in
            let score = result.report.map { "\(Grader.points($0.score))/\(Grader.points($0.maxScore))" } ?? "-"
            live.line(
                "[\(index + 1)/\(entries.count)] \(entries[index].name): \(result.status.rawValue.uppercased()) \(score) in \(ClassGrader.duration(result.elapsedSeconds))"
                    + (result.note.isEmpty ? "" : " (\(result.note))"))
            summary.record(index, result)
        }
        live.clear()
        do { try summary.write(results) } catch {
            stderrLine("racelab: harness failure: cannot write \(summary.url.path): \(error.localizedDescription)")
            return 1
        }
        print(
            "racelab grade-all: " + (request.shard.map { "shard \($0): " } ?? "")
                + "\(results.count) submission(s); summary \(summary.url.path)"
                + (request.shard == nil ? "" : " (racelab grade-merge puts every shard's folder together)"))
        let errors = results.filter { $0.status == .error }
        if !errors.isEmpty {
            stderrLine("racelab: harness failure for \(errors.map(\.student).joined(separator: ", ")): see summary.csv")
            return 1
        }
        return 0
    }
}
