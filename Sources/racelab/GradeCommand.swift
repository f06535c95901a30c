import CRaceLabSupport
import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness

/// `racelab grade`'s declaration: its options, each read by its symbol.
enum GradeCommand {
    static let labs = CommonOptions.labs
    static let format = Option<GradeFormat>.choice(
        "format", "text|json|junit|gradescope", "the report's format (default text)")
    static let output = Option.text("output", "FILE", "write the report there (default: standard output)")
    static let seed = CommonOptions.seed
    static let manifest = Option.text(
        "manifest", "FILE",
        "a trusted kit manifest (racelab-kit.json from racelab export): files changed outside the exercises fail")
    static let student = Option.text("student", "NAME", "the student's name, as the report gives it")
    static let partialCredit = Flag(
        "partial-credit", "each clean pass scores (default: a bug seen in any pass scores the lab 0)")
    static let failUnlessFull = Flag("fail-unless-full", "exit 1 below full marks (CI, GitHub Classroom)")
    static let jobs = CommonOptions.jobs
    static let from = Option.text("from", "REPORT.json", "render a saved json report again, in --format")

    static let spec = CommandSpec(
        name: "grade", summary: "grade this package's exercises, each through every pass",
        options: [labs, format, output, seed, manifest, student, partialCredit, failUnlessFull, jobs, from],
        details:
            "exit status: 0 graded (whatever the score, unless --fail-unless-full), 1 harness failure, 2 bad usage."
    )
}

/// What `racelab grade` was asked to do, read and checked before any work.
struct GradeRequest {
    var labs: [Lab]
    var format: GradeFormat
    /// Where the report goes; nil: standard output.
    var output: String?
    var work: Work

    enum Work {
        /// `--from`: a saved report, rendered again.
        case render(GradeReport)
        case grade(Grading)
    }

    /// How to grade.
    struct Grading {
        var seed: UInt64
        /// `--manifest`: files changed outside the exercises fail.
        var trusted: KitManifest?
        var jobs: Int?
        var student: String?
        var partialCredit: Bool
        var failUnlessFull: Bool
    }
}

/// `racelab grade`: this package's exercises graded. Thin: the work is done by Grader.
extension RaceLabCommandLine {
    func grade(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let request = try gradeRequest(arguments)
        switch request.work {
        case .render(let saved): return try write(saved, format: request.format, to: request.output)
        case .grade(let grading): return try grade(request, grading)
        }
    }

    /// Every option read and checked, in the order a bad one is reported (`--from` needs no other).
    func gradeRequest(_ arguments: ParsedArguments) throws(UsageError) -> GradeRequest {
        let output = try arguments[GradeCommand.output]
        try checkOutput(file: output, option: "--output", what: "the report")
        let labs = try labList(try arguments[GradeCommand.labs])
        let format = try arguments[GradeCommand.format] ?? .text
        if let path = try arguments[GradeCommand.from] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), let saved = GradeJSON.decode(text)
            else {
                throw UsageError(
                    "cannot read '\(path)' as a grade report: give a file written by racelab grade --format json")
            }
            return GradeRequest(labs: labs, format: format, output: output, work: .render(saved))
        }
        let seed = try arguments[GradeCommand.seed] ?? UInt64.random(in: 1...999_999)
        var trusted: KitManifest?
        if let path = try arguments[GradeCommand.manifest] {
            do { trusted = try KitManifest.read(from: URL(fileURLWithPath: path)) } catch {
                throw UsageError(
                    "cannot read the manifest '\(path)': give the racelab-kit.json written by racelab export")
            }
        }
        let grading = GradeRequest.Grading(
            seed: seed, trusted: trusted, jobs: try arguments[GradeCommand.jobs],
            student: try arguments[GradeCommand.student], partialCredit: arguments[GradeCommand.partialCredit],
            failUnlessFull: arguments[GradeCommand.failUnlessFull])
        return GradeRequest(labs: labs, format: format, output: output, work: .grade(grading))
    }

    /// The exercises graded (set up as bench agreement sets up its "grade" side), the report
    /// written; exit 1 for a harness failure, or below full marks with --fail-unless-full.
    func grade(_ request: GradeRequest, _ grading: GradeRequest.Grading) throws(UsageError) -> Int32 {
        let root = packageRoot
        let integrity = Grader.integrity(of: root, trusted: grading.trusted)
        if integrity.status != .tampered && rl_tsan_enabled() == 0 {
            stderrLine("racelab: harness failure: " + Self.builtWithoutTSan)
            return 1
        }
        let grader = Grader.forGrade(
            executable: childProgram, partialCredit: grading.partialCredit, seed: grading.seed, programName: program,
            root: root, jobs: grading.jobs, environment: environment)
        let progressLine = ProgressLine(enabled: isatty(2) != 0)
        let calibrations = root.flatMap(CalibrationFile.read(packageAt:))
        let violations = ExerciseChecks.rejections(
            of: request.labs, root: root, buildFolder: childProgram.deletingLastPathComponent())
        var report = grader.report(
            labs: request.labs, integrity: integrity, calibrations: calibrations,
            command: CommandLine.arguments.joined(separator: " "), student: grading.student,
            preset: grader.rejectedGrades(of: request.labs, violations: violations, calibrations: calibrations),
            onProgress: progressLine.show)
        report.notes.append(ChildIsolation.probe(executable: childProgram).summary)
        progressLine.clear()
        if try write(report, format: request.format, to: request.output) != 0 {
            return 1
        }
        if let failure = report.harnessFailure {
            stderrLine("racelab: harness failure: \(failure)")
            return 1
        }
        if grading.failUnlessFull && report.score < report.maxScore {
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
}
