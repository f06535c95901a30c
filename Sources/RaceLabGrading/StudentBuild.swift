import Foundation
import LabKit
import RaceLabHarness

/// One student's build in progress: the exercises going into the workspace's tree (the kit's
/// put back for every lab that is reused, refused or does not build) and the grades decided
/// without running anything.
struct StudentBuild {
    var exercises: [String: Data]
    var preset: [String: LabGrade] = [:]
    /// Labs whose grade was given to identical exercise files earlier in this run.
    var reused: Set<String> = []
    /// The memo key of each selected lab's exercise files.
    var keys: [String: String] = [:]
}

extension ClassGrader {
    /// Reads, checks and builds one student's exercises in the workspace's tree, and copies the
    /// lab program into a private folder of the student's. Not safe to call from two threads.
    public func build(_ entry: SubmissionFolder.Entry, onPhase: @escaping @Sendable (String) -> Void) -> BuildOutcome {
        let started = Date()
        let student = entry.name
        func finish(_ status: StudentResult.Status, _ report: GradeReport?, _ note: String) -> BuildOutcome {
            .finished(self.finish(student, started: started, status, report, note))
        }
        onPhase("reading")
        let root: URL
        var state: StudentBuild
        switch read(entry) {
        case .success(let (folder, exercises)): (root, state) = (folder, StudentBuild(exercises: exercises))
        case .failure(let refusal):
            return finish(refusal.status, refusal.zero ? zero(student, refusal) : nil, refusal.reason)
        }
        let integrity = ignoredChanges(in: root)
        // A lab not being graded (`--labs`) is built from the kit's exercise: the student's code
        // there is neither run nor scored, and rebuilding it would cost each submission a build.
        for lab in registry.labs where !selectedLabs.contains(where: { $0.id == lab.id }) {
            restoreKitExercise(of: lab, in: &state)
        }
        reuseEarlierGrades(&state)
        applySourceChecks(&state)
        // Every selected lab decided already: nothing to build or run.
        if selectedLabs.allSatisfy({ state.preset[$0.id] != nil || Grader.exercise(of: $0) == nil }) {
            return .built(
                Built(
                    student: student, started: started, folder: nil, program: nil, integrity: integrity,
                    preset: state.preset, reused: state.reused, keys: state.keys))
        }
        onPhase("building")
        if let failure = compile(&state, student: student, onPhase: onPhase) { return finish(.error, nil, failure) }
        // Run the student's lab program from a private folder of the student's.
        let studentFolder = workspace.appendingPathComponent("students").appendingPathComponent(UUID().uuidString)
        let program = studentFolder.appendingPathComponent("racelab-child")
        do {
            try FileManager.default.createDirectory(
                at: studentFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.copyItem(at: builder.product, to: program)
        } catch {
            return finish(.error, nil, "cannot set up the student's folder: \(error.localizedDescription)")
        }
        return .built(
            Built(
                student: student, started: started, folder: studentFolder, program: program, integrity: integrity,
                preset: state.preset, reused: state.reused, keys: state.keys))
    }

    /// Why a submission is not built at all: its status, whether every lab gets a zero grade
    /// (a refused or unreadable submission) or none (not a submission), and the reason.
    struct Refusal: Error {
        let status: StudentResult.Status
        let gradeStatus: LabGrade.Status
        let zero: Bool
        let reason: String
    }

    /// The submission's package root and its exercises (the kit's where it has none), read as
    /// plain files: a link anywhere refuses it.
    func read(_ entry: SubmissionFolder.Entry) -> Result<(URL, [String: Data]), Refusal> {
        switch entry.kind {
        case .link(let target):
            return .failure(
                Refusal(
                    status: .rejected, gradeStatus: .rejected, zero: true,
                    reason: "the submission is a link (to \(target)); submissions must be plain folders"))
        case .file:
            return .failure(
                Refusal(
                    status: .skipped, gradeStatus: .failed, zero: false,
                    reason: "not a folder (unpack an archive first)"))
        case .folder:
            break
        }
        let root: URL
        do { root = try SubmissionFolder.packageRoot(in: entry.url) } catch {
            return .failure(Refusal(status: .skipped, gradeStatus: .failed, zero: true, reason: error.description))
        }
        let links = SubmissionFolder.links(in: root)
        if !links.isEmpty {
            let reason =
                "it holds links (\(links.prefix(3).joined(separator: ", "))\(links.count > 3 ? ", ..." : "")); submissions must be plain folders"
            return .failure(Refusal(status: .rejected, gradeStatus: .rejected, zero: true, reason: reason))
        }
        var exercises: [String: Data] = [:]
        for path in trusted.editable {
            do {
                exercises[path] =
                    try SubmissionFolder.read(path, in: root, maxBytes: settings.maxExerciseBytes) ?? kitExercises[path]
            } catch {
                return .failure(
                    Refusal(status: .rejected, gradeStatus: .rejected, zero: true, reason: error.description))
            }
        }
        return .success((root, exercises))
    }

    /// Every selected lab scored 0 for `refusal`, nothing run.
    func zero(_ student: String, _ refusal: Refusal) -> GradeReport {
        let labs = selectedLabs.compactMap { lab in
            Grader.exercise(of: lab).map {
                ungraded.notGraded(
                    lab, variant: $0, stress: plan(for: lab), status: refusal.gradeStatus, reason: refusal.reason)
            }
        }
        return GradeReport(
            command: "racelab grade-all", student: student, seed: settings.seed, policy: policy,
            integrity: unchecked(refusal.reason), labs: labs, elapsedSeconds: 0)
    }

    /// A lab graded without the student's files (reused, refused, not built): the kit's own
    /// exercise goes into the build in its place.
    func restoreKitExercise(of lab: Lab, in state: inout StudentBuild) {
        for path in exercisePaths(of: lab) { state.exercises[path] = kitExercises[path] }
    }

    /// Labs whose exact exercise files were graded earlier in this run keep that grade: their
    /// files go back to the kit's, so they cost no compiling and no running.
    func reuseEarlierGrades(_ state: inout StudentBuild) {
        for lab in selectedLabs {
            let key = memo.key(lab: lab.id, files: exercisePaths(of: lab).map { ($0, state.exercises[$0] ?? Data()) })
            state.keys[lab.id] = key
            if let earlier = memo.grade(for: key) {
                state.preset[lab.id] = earlier
                state.reused.insert(lab.id)
                restoreKitExercise(of: lab, in: &state)
            }
        }
    }

    /// Source checks: a refused exercise is replaced by the kit's before anything is built.
    func applySourceChecks(_ state: inout StudentBuild) {
        for lab in registry.labs where settings.exerciseChecks && !state.reused.contains(lab.id) {
            let violations = exercisePaths(of: lab).flatMap { path in
                ExercisePolicy.check(
                    source: String(decoding: state.exercises[path] ?? Data(), as: UTF8.self), file: path,
                    labModule: ExerciseChecks.labModule(of: lab))
            }
            if !violations.isEmpty { reject(lab, violations, in: &state) }
        }
    }

    /// `lab`'s exercise refused by the exercise checks: the kit's goes in instead, and it scores 0.
    func reject(_ lab: Lab, _ violations: [PolicyViolation], in state: inout StudentBuild) {
        restoreKitExercise(of: lab, in: &state)
        if let variant = Grader.exercise(of: lab) {
            state.preset[lab.id] = ungraded.rejected(
                lab, variant: variant, stress: plan(for: lab), violations: violations)
        }
    }

    /// `lab` not graded for `reason`: the kit's exercise goes in instead, and it scores 0.
    func notGraded(_ lab: Lab, _ reason: String, in state: inout StudentBuild) -> LabGrade? {
        restoreKitExercise(of: lab, in: &state)
        guard let variant = Grader.exercise(of: lab) else { return nil }
        let grade = ungraded.notGraded(lab, variant: variant, stress: plan(for: lab), status: .failed, reason: reason)
        state.preset[lab.id] = grade
        return grade
    }

    /// Builds the tree with the student's exercises; puts back what does not compile, takes too
    /// long to, or what the binary check refuses, and builds again. Nil when a program was built;
    /// else why none could be.
    func compile(_ state: inout StudentBuild, student: String, onPhase: @escaping @Sendable (String) -> Void) -> String?
    {
        var attempts = 0
        while true {
            attempts += 1
            guard write(state.exercises) else { return "cannot write into the workspace \(tree.path)" }
            var studentBuilder = builder
            studentBuilder.timeout = min(builder.timeout, settings.studentBuildTimeout)
            let built = studentBuilder.build { onPhase("building \(ClassGrader.duration($0))") }
            let changed = state.exercises
            if built.timedOut {
                guard attempts < 3 else {
                    return
                        "the kit with this submission's exercises put back did not build within \(Int(studentBuilder.timeout)) s"
                }
                // Which file takes so long is not known: every exercise the student changed goes
                // back to the kit's, and its lab scores 0 with the reason.
                let reason =
                    "the build did not finish within \(Int(studentBuilder.timeout)) s: code that takes that long to compile is refused"
                for lab in registry.labs where state.preset[lab.id] == nil && studentWrote(lab, changed) {
                    _ = notGraded(lab, reason, in: &state)
                }
                continue
            }
            if built.succeeded {
                var replaced = false
                for lab in registry.labs
                where settings.exerciseChecks && state.preset[lab.id] == nil && studentWrote(lab, changed) {
                    guard let violations = ExerciseChecks.binary(of: lab, buildFolder: builder.buildFolder, root: tree),
                        !violations.isEmpty
                    else { continue }
                    replaced = true
                    reject(lab, violations, in: &state)
                }
                if !replaced { return nil }
                continue
            }
            let folders = registry.labs.filter { studentWrote($0, changed) }.map(\.info.folder.lastPathComponent)
            let blamed = ChildBuilder.blamedLabFolders(in: built.log, labFolders: folders)
            let firstError = ChildBuilder.shortError(
                built.log.split(separator: "\n").first { $0.contains("error:") }.map(String.init) ?? "the build failed")
            let targets = blamed.isEmpty ? Dictionary(uniqueKeysWithValues: folders.map { ($0, firstError) }) : blamed
            guard !targets.isEmpty, attempts < 6 else {
                let log = settings.output.appendingPathComponent("\(Self.fileName(for: student)).build.log")
                try? Data(built.log.utf8).write(to: log)
                return "the kit with this submission's exercises put back does not build; see \(log.lastPathComponent)"
            }
            for lab in registry.labs {
                guard let target = targets[lab.info.folder.lastPathComponent] else { continue }
                notCompiled(lab, error: target, in: &state)
            }
        }
    }

    /// `lab`'s exercise does not compile against the kit: refused if the compiler's memory-safety
    /// check said so (like the policy), else not graded; the kit's goes in instead.
    func notCompiled(_ lab: Lab, error target: String, in state: inout StudentBuild) {
        // (The workspace is the grader's: the student's paths are relative to the kit.)
        let error = target.replacingOccurrences(of: tree.path + "/", with: "")
        if settings.exerciseChecks,
            let unsafe = ExercisePolicy.memorySafetyViolation(
                fromCompilerError: error, file: exercisePaths(of: lab).first ?? lab.id)
        {
            return reject(lab, [unsafe], in: &state)
        }
        let reason = "\(exercisePaths(of: lab).joined(separator: ", ")) does not compile: \(error)"
        guard var grade = notGraded(lab, reason, in: &state) else { return }
        grade.message =
            "\(lab.id): 0/\(Grader.points(policy.pointsPerLab)), \(grade.exerciseFile) does not compile against the kit: \(error)"
        state.preset[lab.id] = grade
    }
}
