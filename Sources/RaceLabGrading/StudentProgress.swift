import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// What a student has done so far, kept in `.racelab/progress.json` in the package (a hidden
/// folder: never part of a kit, never seen by the tamper check): the last `racelab check` of
/// each lab and how many hints were shown.
public struct StudentProgress: Codable, Sendable, Equatable {
    public static let relativePath = ".racelab/progress.json"

    public struct Check: Codable, Sendable, Equatable {
        public var passing: Bool
        public var score: Double
        public var maxScore: Double
        /// SHA-256 of the exercise file(s) that were checked.
        public var exerciseHash: String
        public var checkedAt: String
        public var seed: UInt64

        public init(
            passing: Bool, score: Double, maxScore: Double, exerciseHash: String, checkedAt: String, seed: UInt64
        ) {
            self.passing = passing
            self.score = score
            self.maxScore = maxScore
            self.exerciseHash = exerciseHash
            self.checkedAt = checkedAt
            self.seed = seed
        }
    }

    public var checks: [String: Check] = [:]
    public var hintsShown: [String: Int] = [:]
    /// Per lab, when the student began it and when it first passed (`LabTimeline`): the
    /// learner's minutes per lab, which `racelab bench learners` adds up over a class.
    public var timelines: [String: LabTimeline] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey { case checks, hintsShown, timelines }

    /// Files written before a field existed still read (the field starts empty).
    public init(from decoder: Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        checks = try values.decodeIfPresent([String: Check].self, forKey: .checks) ?? [:]
        hintsShown = try values.decodeIfPresent([String: Int].self, forKey: .hintsShown) ?? [:]
        timelines = try values.decodeIfPresent([String: LabTimeline].self, forKey: .timelines) ?? [:]
    }

    /// The student ran, checked or asked a hint for `lab` at `date`: its timeline starts, if it
    /// has not yet.
    public mutating func began(_ lab: String, at date: Date) {
        if timelines[lab] == nil { timelines[lab] = LabTimeline(started: date) }
    }

    /// A `racelab check` of `lab` at `date`; the first passing one ends the lab's time.
    public mutating func checked(_ lab: String, passing: Bool, at date: Date) {
        began(lab, at: date)
        timelines[lab]?.checked(passing: passing, at: date)
    }

    /// A hint of `lab` shown at `date`.
    public mutating func hinted(_ lab: String, at date: Date) {
        began(lab, at: date)
        timelines[lab]?.hinted()
    }

    /// Where the progress of the package at `root` is kept (`RACELAB_PROGRESS_FILE` overrides,
    /// for tests); nil without a package.
    public static func file(packageAt root: URL?, environment: [String: String]) -> URL? {
        if let path = environment["RACELAB_PROGRESS_FILE"] { return URL(fileURLWithPath: path) }
        return root?.appendingPathComponent(relativePath)
    }

    /// What reading the progress file found.
    public enum Reading: Equatable {
        case fresh(StudentProgress)
        /// The file is there but not progress JSON; it was left as it is.
        case corrupt(String)
    }

    /// Reads progress files (dates as ISO 8601, as they are written).
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// The progress in `url`; a missing file is fresh progress.
    public static func read(from url: URL?) -> Reading {
        guard let url, FileManager.default.fileExists(atPath: url.path) else { return .fresh(StudentProgress()) }
        guard let data = try? Data(contentsOf: url),
            let progress = try? decoder.decode(StudentProgress.self, from: data)
        else {
            return .corrupt("\(url.path) is not readable progress; it was left as it is")
        }
        return .fresh(progress)
    }

    /// The progress in `url`, or fresh progress when there is none or it cannot be read.
    public static func load(from url: URL?) -> StudentProgress {
        if case .fresh(let progress) = read(from: url) { return progress }
        return StudentProgress()
    }

    /// Reads, changes and writes the progress file as one step, under an exclusive lock on
    /// `<file>.lock` (several racelab commands at once lose nothing), writing a new file and
    /// renaming it over the old one (a crash leaves the old or the new, never half of one). A
    /// corrupt file is kept aside as `<file>.corrupt-<time>` and named in the returned warning;
    /// it is never silently replaced.
    @discardableResult
    public static func update(at url: URL?, _ change: (inout StudentProgress) -> Void) throws -> (
        progress: StudentProgress, warning: String?
    ) {
        guard let url else {
            var progress = StudentProgress()
            change(&progress)
            return (progress, nil)
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let lock = open(url.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path + ".lock"])
        }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(lock, LOCK_UN) }
        var warning: String?
        var progress: StudentProgress
        switch read(from: url) {
        case .fresh(let value):
            progress = value
        case .corrupt:
            let aside =
                url.path + ".corrupt-"
                + ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
            try FileManager.default.moveItem(atPath: url.path, toPath: aside)
            warning = "\(url.path) could not be read; it was kept as \(aside) and progress starts again"
            progress = StudentProgress()
        }
        change(&progress)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(progress).write(to: url, options: .atomic)
        return (progress, warning)
    }

    /// Writes `self` to `url` (replacing what is there, atomically).
    public func save(to url: URL?) throws {
        guard let url else { return }
        let copy = self
        try Self.update(at: url) { $0 = copy }
    }

    // MARK: Exercise files

    /// The lab's exercise files (`Exercise*.swift` in its folder), relative to `root`.
    public static func exerciseFiles(of lab: Lab, root: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: lab.info.folder.path)) ?? []
        return names.filter { $0.hasPrefix("Exercise") && $0.hasSuffix(".swift") }.sorted()
            .map { PackageRoot.relative(lab.info.folder.appendingPathComponent($0).path, to: root) }
    }

    /// One hash over the exercise files as they are now.
    public static func exerciseHash(of lab: Lab, root: URL) -> String {
        var hasher = SHA256()
        for path in exerciseFiles(of: lab, root: root) {
            hasher.update("\(path) \(SHA256.hex(fileAt: root.appendingPathComponent(path)) ?? "unreadable")\n")
        }
        return SHA256.hexString(hasher.finalize())
    }

    // MARK: The progress view

    public enum Status: String, Sendable {
        case notStarted = "not started"
        /// Edited, never checked since.
        case notChecked = "not checked"
        case failing, passing
    }

    public struct Row: Sendable {
        public var lab: String
        public var title: String
        public var status: Status
        public var detail: String
    }

    /// Every lab's status. "not started": the exercise is as the kit shipped it (per the
    /// manifest), or, outside a kit, was never checked. A check counts only while the exercise
    /// is unchanged since; after an edit the last result is shown as a reminder.
    public func rows(_ registry: LabRegistry, root: URL, manifest: KitManifest?) -> [Row] {
        registry.labs.map { lab in
            let files = Self.exerciseFiles(of: lab, root: root)
            let pristine = manifest.map { manifest in
                !files.isEmpty
                    && files.allSatisfy { path in
                        manifest.files[path] != nil
                            && manifest.files[path] == SHA256.hex(fileAt: root.appendingPathComponent(path))
                    }
            }
            let check = checks[lab.id]
            let hash = Self.exerciseHash(of: lab, root: root)
            let hints = hintsShown[lab.id].map { ", \($0) hint(s) seen" } ?? ""
            if pristine == true || (pristine == nil && check == nil) {
                return Row(
                    lab: lab.id, title: lab.info.title, status: .notStarted,
                    detail: "racelab check \(lab.id) when you are ready" + hints)
            }
            guard let check else {
                return Row(
                    lab: lab.id, title: lab.info.title, status: .notChecked,
                    detail: "edited; run racelab check \(lab.id)" + hints)
            }
            let score = "\(Grader.points(check.score))/\(Grader.points(check.maxScore))"
            if check.exerciseHash != hash {
                return Row(
                    lab: lab.id, title: lab.info.title, status: .notChecked,
                    detail:
                        "edited since the last check (\(check.passing ? "passing" : "failing"), \(score), \(check.checkedAt))"
                        + hints)
            }
            let minutes =
                timelines[lab.id]?.minutesToPass.map { ", first passed after \(LabTimeline.describe(minutes: $0))" }
                ?? ""
            return Row(
                lab: lab.id, title: lab.info.title, status: check.passing ? .passing : .failing,
                detail: "\(score), checked \(check.checkedAt), seed \(check.seed)" + minutes + hints)
        }
    }

    /// `platform`: on a system without every check of the grader's, the passes are provisional.
    public static func render(_ rows: [Row], platform: PlatformChecks = .here) -> String {
        let header = ["LAB", "STATUS", "DETAIL"]
        var lines = GradeText.table(header, rows.map { [$0.lab, $0.status.rawValue, $0.detail] })
        let passing = rows.filter { $0.status == .passing }.count
        lines.append("")
        lines.append("\(passing) of \(rows.count) lab(s) passing.")
        if passing > 0, !platform.missing.isEmpty {
            lines.append(
                "Passing here, provisionally: this system lacks checks the grader runs (racelab doctor lists them), so the grader may still fail some of them."
            )
        }
        return lines.joined(separator: "\n")
    }
}
