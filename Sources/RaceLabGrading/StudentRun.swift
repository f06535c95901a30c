import Foundation
import LabKit
import RaceLabHarness

/// One student through `racelab grade-all`, once built (StudentBuild.swift): their lab program
/// run in children, their report written; and every student of a class, builds one at a time
/// beside the runs.
extension ClassGrader {
    /// A student whose lab program is built and copied into a folder of their own, ready to run.
    public struct Built: Sendable {
        var student: String
        var started: Date
        /// The student's private folder and lab program; nil when every lab was decided before running.
        var folder: URL?
        var program: URL?
        var integrity: GradeIntegrity
        var preset: [String: LabGrade]
        /// Labs whose grade was given to identical exercise files earlier in this run.
        var reused: Set<String>
        /// The memo key of each selected lab's exercise files.
        var keys: [String: String]
    }

    /// What building a student gives: their lab program, or already a result (refused, skipped).
    public enum BuildOutcome: Sendable {
        case built(Built)
        case finished(StudentResult)
    }

    /// Every entry graded: builds one at a time (they share the workspace's tree, and a build
    /// uses every core) while up to `runningAtOnce` built students are run (default 2, or 1
    /// with `jobs` 1: a serial run), each with `settings.jobs` children at a time. `onPhase` and `onResult` are called on any thread
    /// with the entry's index; the results come back in entry order.
    public func gradeAll(
        _ entries: [SubmissionFolder.Entry], runningAtOnce: Int? = nil,
        onPhase: @escaping @Sendable (Int, String) -> Void,
        onResult: @escaping @Sendable (Int, StudentResult) -> Void
    ) -> [StudentResult] {
        let results = IndexedResults<StudentResult>(count: entries.count)
        let slots = DispatchSemaphore(value: max(1, runningAtOnce ?? (settings.jobs > 1 ? 2 : 1)))
        let group = DispatchGroup()
        let runners = DispatchQueue(label: "racelab.grade-all.students", attributes: .concurrent)
        for (index, entry) in entries.enumerated() {
            switch build(entry, onPhase: { onPhase(index, $0) }) {
            case .finished(let result):
                results.set(index, result)
                onResult(index, result)
            case .built(let built):
                slots.wait()
                group.enter()
                runners.async {
                    let result = self.run(built) { onPhase(index, $0) }
                    results.set(index, result)
                    onResult(index, result)
                    slots.signal()
                    group.leave()
                }
            }
        }
        group.wait()
        return results.all
    }

    /// One student, built then run.
    public func grade(_ entry: SubmissionFolder.Entry, onPhase: @escaping @Sendable (String) -> Void) -> StudentResult {
        switch build(entry, onPhase: onPhase) {
        case .finished(let result): return result
        case .built(let built): return run(built, onPhase: onPhase)
        }
    }

    func finish(
        _ student: String, started: Date, _ status: StudentResult.Status, _ report: GradeReport?, _ note: String
    ) -> StudentResult {
        var result = StudentResult(
            student: student, status: status, report: report, note: note, reportFile: nil,
            elapsedSeconds: Date().timeIntervalSince(started))
        if let report { result.reportFile = write(report, for: student) }
        return result
    }

    /// Runs a built student's lab program and writes their report. Safe beside `build` and
    /// other runs: it reads only what `prepare` set up, and its own student folder.
    public func run(_ built: Built, onPhase: @escaping @Sendable (String) -> Void) -> StudentResult {
        let (student, integrity) = (built.student, built.integrity)
        // A grade for the same files may have come in from another student since the build.
        var (preset, reused) = (built.preset, built.reused)
        for lab in selectedLabs where preset[lab.id] == nil {
            if let key = built.keys[lab.id], let earlier = memo.grade(for: key) {
                preset[lab.id] = earlier
                reused.insert(lab.id)
            }
        }
        func finish(_ status: StudentResult.Status, _ report: GradeReport?, _ note: String) -> StudentResult {
            self.finish(student, started: built.started, status, report, note)
        }
        defer { if !settings.keep, let folder = built.folder { try? FileManager.default.removeItem(at: folder) } }
        onPhase("grading")
        // No program: every lab was decided without running, and this grader starts no child.
        var studentGrader = Grader(
            executable: built.program, policy: policy, seed: settings.seed,
            programName: studentsRaceLab, root: tree)
        studentGrader.jobs = settings.jobs
        var report = studentGrader.report(
            labs: selectedLabs, integrity: integrity, calibrations: calibrations, command: "racelab grade-all",
            student: student, preset: preset
        ) { onPhase("grading: \($0)") }
        report.notes.append(ChildIsolation.probe(executable: kitProgram).summary)
        if !settings.exerciseChecks {
            report.notes.append(
                "the exercise checks were OFF (RACELAB_UNSAFE_SKIP_EXERCISE_CHECKS): this grade tests the harness's other defences and is not a course grade"
            )
        }
        if let failure = report.harnessFailure { return finish(.error, report, "harness failure: \(failure)") }
        for grade in report.labs where !reused.contains(grade.lab) {
            if let key = built.keys[grade.lab] { memo.remember(grade, for: key) }
        }
        if !reused.isEmpty {
            report.notes.append(
                "graded before in this run, with the same exercise files and seed, so the same grade: \(reused.sorted().joined(separator: ", "))"
            )
        }
        let fresh = preset.filter { !reused.contains($0.key) }.values
        let notes = [
            fresh.filter { $0.status == .rejected }.map(\.lab).sorted().nonEmpty.map {
                "rejected: \($0.joined(separator: ", "))"
            },
            fresh.filter { $0.status == .failed }.map(\.lab).sorted().nonEmpty.map {
                "did not compile: \($0.joined(separator: ", "))"
            },
            integrity.status == .ignored ? "other changes ignored" : nil
        ].compactMap { $0 }
        return finish(.graded, report, notes.joined(separator: "; "))
    }

    /// Whether the student's exercise for `lab` differs from the kit's.
    func studentWrote(_ lab: Lab, _ exercises: [String: Data]) -> Bool {
        exercisePaths(of: lab).contains { exercises[$0] != kitExercises[$0] }
    }

    /// Writes into the tree the exercise files that differ from what it holds (so the build
    /// recompiles only those).
    func write(_ exercises: [String: Data]) -> Bool {
        for (path, data) in exercises where inTree[path] != data {
            do { try data.write(to: tree.appendingPathComponent(path)) } catch { return false }
            inTree[path] = data
        }
        return true
    }

    /// Files of the submission that differ from the kit outside the exercises: noted, never used.
    func ignoredChanges(in root: URL) -> GradeIntegrity {
        let findings = TamperCheck.check(root, against: trusted, checkManifestCopy: false)
        guard !findings.isEmpty else {
            return GradeIntegrity(
                status: .verified, manifestDigest: trusted.digest, findings: [],
                message: "only exercise files differ from the kit (\(trusted.files.count) files checked)")
        }
        return GradeIntegrity(
            status: .ignored, manifestDigest: trusted.digest, findings: findings,
            message:
                "changed outside the exercise files, ignored (the kit's own files were used): \(TamperCheck.summary(findings))"
        )
    }

    func unchecked(_ reason: String) -> GradeIntegrity {
        GradeIntegrity(status: .unchecked, manifestDigest: trusted.digest, findings: [], message: reason)
    }

    /// Grades decided without running anything (a refused or unbuilt exercise).
    var ungraded: UngradedLabs { UngradedLabs(policy: policy) }

    func plan(for lab: Lab) -> StressPlan {
        StressPlan.make(lab, calibration: calibrations?.current(for: lab), policy: policy)
    }
}
