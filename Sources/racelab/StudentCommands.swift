import CRaceLabSupport
import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness

/// `racelab check`'s declaration.
enum CheckCommand {
    static let seed = CommonOptions.seed
    static let jobs = CommonOptions.jobs
    static let spec = CommandSpec(
        name: "check", arguments: "<lab>", positionals: 1...1,
        summary: "your exercise through the grader's passes, and what is still wrong, in plain words",
        options: [seed, jobs])
}

/// `racelab hint`'s declaration.
enum HintCommand {
    static let reset = Flag("reset", "start the hints again from the first")
    static let spec = CommandSpec(
        name: "hint", arguments: "<lab>", positionals: 1...1, summary: "the lesson's hints, one more each time",
        options: [reset])
}

/// `racelab progress`'s declaration.
enum ProgressCommand {
    static let spec = CommandSpec(name: "progress", summary: "every lab: not started, failing, passing")
}

/// The student's commands: check, hint, progress (watch: WatchCommand.swift). Thin: the work is
/// done by Grader, StudentFeedback, LessonHints and StudentProgress.
extension RaceLabCommandLine {
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
            executable: childProgram, seed: try arguments[CheckCommand.seed] ?? UInt64.random(in: 1...999_999),
            programName: program, root: root, jobs: try arguments[CheckCommand.jobs], environment: environment)
        // The warnings hash the whole kit against its manifest (about 2 s in a debug TSan build):
        // worked out beside the passes, whose children mostly wait, not before them.
        let warnings = BackgroundResult { [childProgram] in
            StudentFeedback.warnings(for: lab, root: root, executable: childProgram)
        }
        let progressLine = ProgressLine(enabled: isatty(2) != 0)
        let calibrations = root.flatMap(CalibrationFile.read(packageAt:))
        let violations = ExerciseChecks.rejections(
            of: [lab], root: root, buildFolder: childProgram.deletingLastPathComponent())
        let grade: LabGrade
        if let rejected = grader.rejectedGrades(of: [lab], violations: violations, calibrations: calibrations)[lab.id] {
            grade = rejected
        } else {
            let (plan, _) = grader.stressPlan(
                for: lab, calibrations: calibrations, measureIfMissing: true, onProgress: progressLine.show)
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
        if arguments[HintCommand.reset] {
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
}
