import Foundation
import LabKit
import RaceLabHarness

/// `racelab grade-all`: grades a folder of submissions (one entry per student) with the
/// instructor's own racelab as the only judge.
///
/// The kit is copied once into a private workspace and its lab program (`racelab-child`) built
/// there. For each student, only the exercise files are taken from the submission (read as
/// plain files, never through a link, size-limited), checked against the exercise policy, put
/// into that one tree and rebuilt (only what they change). Exercises that do not compile, or
/// whose compiled code the policy refuses, are put back to the kit's and graded 0, so nothing a
/// student wrote that was refused is ever run. The student's lab program is copied into a
/// private folder of the student's and run in child processes; the parent (this process) links
/// no lab code at all. Everything else in a submission is ignored (and noted if it differs).
///
/// Sendable by construction rather than by the compiler: `build` (which changes the tree) runs
/// on one thread only, and `run` reads only what `prepare` set up.
public final class ClassGrader: @unchecked Sendable {
    public struct Settings: Sendable {
        public var submissions: URL
        /// The kit as handed out: its racelab-kit.json is the trusted manifest, and its files are
        /// the ones every submission is built with.
        public var kit: URL
        public var output: URL
        public var format: GradeFormat
        public var labs: [String]?
        public var seed: UInt64
        /// Keep the workspace (tree, builds, student folders) instead of deleting it.
        public var keep = false
        public var swift = "swift"
        public var buildTimeout: Double = 1800
        /// A student's build (only their exercises change): longer than this, and the exercises
        /// they changed are refused as taking too long to compile (a type that grows without end).
        public var studentBuildTimeout: Double = 600
        /// The largest exercise file read from a submission.
        public var maxExerciseBytes = 256 << 10
        /// The exercise checks (`ExercisePolicy`). Off only to test the harness's other defences
        /// (RACELAB_UNSAFE_SKIP_EXERCISE_CHECKS=1); every report then says so.
        public var exerciseChecks = true
        /// Each clean pass scores even when another caught the bug (off: one verdict per lab).
        public var partialCredit = false
        /// Children at once while one student is graded (`ChildPool`).
        public var jobs = ChildPool.defaultJobs()
        /// A folder kept between runs for the kit's built tree (an autograder builds it once at
        /// set-up, then each submission rebuilds only its exercises); nil: a temporary one.
        public var workspace: URL?

        public init(submissions: URL, kit: URL, output: URL, format: GradeFormat, labs: [String]?, seed: UInt64) {
            self.submissions = submissions
            self.kit = kit
            self.output = output
            self.format = format
            self.labs = labs
            self.seed = seed
        }
    }

    public struct StudentResult: Sendable {
        public enum Status: String, Sendable {
            case graded
            /// The submission as a whole was refused (a link out of it, an exercise too large).
            case rejected
            /// Not a folder, or no kit in it.
            case skipped
            /// The harness failed.
            case error
        }

        public var student: String
        public var status: Status
        public var report: GradeReport?
        public var note: String
        public var reportFile: URL?
        public var elapsedSeconds: Double
    }

    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    public let settings: Settings
    public let trusted: KitManifest
    /// The labs of the kit, as its own lab program lists them.
    public private(set) var registry = LabRegistry([])
    let policy: GradingPolicy
    let workspace: URL
    let tree: URL
    var builder: ChildBuilder
    /// The kit's exercise files, by path.
    var kitExercises: [String: Data] = [:]
    /// What each exercise file in the tree holds now, by path.
    var inTree: [String: Data] = [:]
    /// The kit's calibrations, plus any measured in `prepare` for labs without a current one.
    private(set) var calibrations: CalibrationFile?
    let memo = GradeMemo()

    public init(settings: Settings) throws(SetupError) {
        self.settings = settings
        var policy = GradingPolicy()
        policy.partialCredit = settings.partialCredit
        self.policy = policy
        do {
            trusted = try KitManifest.read(from: settings.kit.appendingPathComponent(KitManifest.fileName))
        } catch {
            throw SetupError(
                description:
                    "no readable \(KitManifest.fileName) in '\(settings.kit.path)': give --kit the folder racelab export wrote"
            )
        }
        if let kept = settings.workspace {
            workspace = try Self.keptWorkspace(kept)
        } else {
            do {
                workspace = try RunFolder.privateFolder(named: "racelab-grade-all")
            } catch {
                throw SetupError(description: error.description)
            }
        }
        tree = workspace.appendingPathComponent("kit")
        builder = ChildBuilder(tree: tree, swift: settings.swift)
        builder.timeout = settings.buildTimeout
        calibrations = CalibrationFile.read(packageAt: settings.kit)
    }

    /// A workspace kept between runs: created private if absent; else it must be a folder of
    /// ours that no one else can write (a build there is run, so no one else may plant files).
    static func keptWorkspace(_ url: URL) throws(SetupError) -> URL {
        let folder = url.standardizedFileURL
        var info = stat()
        if lstat(folder.path, &info) != 0 {
            guard mkdir(folder.path, 0o700) == 0, lstat(folder.path, &info) == 0 else {
                throw SetupError(
                    description: "cannot create the workspace '\(folder.path)': \(String(cString: strerror(errno)))")
            }
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o022 == 0 else {
            throw SetupError(
                description:
                    "the workspace '\(folder.path)' must be a folder (not a link) owned by you that only you can write")
        }
        // Student folders left by an interrupted run.
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("students"))
        return folder
    }

    /// Copies the kit into the workspace (only the files that differ, so a kept workspace's
    /// build stays valid; files the kit does not have are removed), builds its lab program and
    /// reads its labs.
    public func prepare(onPhase: @escaping @Sendable (String) -> Void) throws(SetupError) {
        for stale in KitManifest.packageFiles(under: tree) where trusted.files[stale] == nil {
            try? FileManager.default.removeItem(at: tree.appendingPathComponent(stale))
        }
        for path in trusted.files.keys.sorted() {
            let source = settings.kit.appendingPathComponent(path)
            guard let data = FileManager.default.contents(atPath: source.path),
                SHA256.hexString(SHA256.hash(Array(data))) == trusted.files[path]
            else {
                throw SetupError(
                    description: "the kit's \(path) is missing or differs from its manifest: export the kit again")
            }
            let target = tree.appendingPathComponent(path)
            if FileManager.default.contents(atPath: target.path) != data {
                do {
                    try FileManager.default.createDirectory(
                        at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try data.write(to: target)
                } catch {
                    throw SetupError(
                        description: "cannot copy the kit into \(tree.path): \(error.localizedDescription)")
                }
            }
            if trusted.editable.contains(path) {
                kitExercises[path] = data
                inTree[path] = data
            }
        }
        onPhase("building the kit")
        let built = builder.build { onPhase("building the kit \(ClassGrader.duration($0))") }
        guard built.succeeded else {
            let log = workspace.appendingPathComponent("kit-build.log")
            try? Data(built.log.utf8).write(to: log)
            throw SetupError(
                description:
                    "the kit itself does not build (\(built.timedOut ? "timed out" : "status \(built.status)")); log: \(log.path)"
            )
        }
        do { registry = try ChildCatalog.load(from: builder.product) } catch {
            throw SetupError(description: error.description)
        }
        // A lab without a current calibration is measured once here, on the kit's own broken
        // variant, not once per student.
        var settings = Calibrator.Settings()
        settings.jobs = self.settings.jobs
        for lab in selectedLabs where calibrations?.current(for: lab) == nil {
            onPhase("calibrating \(lab.id) (no current entry in the kit's \(CalibrationFile.relativePath))")
            if let measured = Calibrator.measure(lab, executable: builder.product, settings: settings) {
                calibrations = (calibrations ?? CalibrationFile(labs: [])).replacing(measured)
            }
        }
    }

    /// Deletes the workspace (unless asked to keep it).
    public func cleanUp() {
        if !settings.keep && settings.workspace == nil { try? FileManager.default.removeItem(at: workspace) }
        Interruption.untrack(folder: workspace)
    }

    public var workspacePath: String { workspace.path }

    /// The kit's own lab program (built by `prepare`): each student's is a copy with their exercises.
    public var kitProgram: URL { builder.product }
    /// How a student's reproduce commands name racelab: where a build of their own kit puts it
    /// on this platform and build system (relative to the kit, as this workspace's build shows).
    var studentsRaceLab: String {
        PackageRoot.relative(kitProgram.deletingLastPathComponent().appendingPathComponent("racelab").path, to: tree)
    }

    var selectedLabs: [Lab] {
        guard let ids = settings.labs else { return registry.labs }
        return registry.labs.filter { ids.contains($0.id) }
    }

    /// The exercise files of `lab` in the manifest ("Labs/ListAdder/Exercise.swift").
    func exercisePaths(of lab: Lab) -> [String] {
        trusted.editable.filter { $0.hasPrefix("Labs/\(lab.info.folder.lastPathComponent)/") }
    }

    // MARK: Reports

    /// The report file's name for a student: hidden names get a visible one ("_dot_sneaky"),
    /// and a name that starts with "_" one more "_", so that no two students share a file.
    static func fileName(for student: String) -> String {
        if student.hasPrefix(".") { return "_dot_" + student.dropFirst() }
        return student.hasPrefix("_") ? "_" + student : student
    }

    func write(_ report: GradeReport, for student: String) -> URL? {
        let url = settings.output.appendingPathComponent(
            "\(Self.fileName(for: student)).\(settings.format.fileExtension)")
        return (try? Data(settings.format.render(report).utf8).write(to: url, options: .atomic)) == nil ? nil : url
    }

    public static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds)
        return whole < 60 ? "\(whole)s" : "\(whole / 60)m\(String(format: "%02d", whole % 60))s"
    }

    /// `summary.csv`: one row per student.
    public static func summaryCSV(_ results: [StudentResult], labs: [String]) -> String {
        var rows = [
            (["student", "status", "score", "max_score"] + labs + ["seconds", "note"]).map(csv).joined(separator: ",")
        ]
        for result in results {
            let report = result.report
            var cells = [
                result.student, result.status.rawValue,
                report.map { Grader.points($0.score) } ?? "0", report.map { Grader.points($0.maxScore) } ?? ""
            ]
            for lab in labs { cells.append(report?.labs.first { $0.lab == lab }.map { Grader.points($0.score) } ?? "") }
            cells += [String(format: "%.0f", result.elapsedSeconds), result.note]
            rows.append(cells.map(csv).joined(separator: ","))
        }
        return rows.joined(separator: "\n") + "\n"
    }

    static func csv(_ value: String) -> String {
        // A cell a spreadsheet would run as a formula (a student's folder named "=HYPERLINK(...)")
        // is kept as text.
        let value = value.first.map { "=+-@\t\r".contains($0) } == true ? "'" + value : value
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension Array {
    var nonEmpty: Self? { isEmpty ? nil : self }
}
