import Foundation

/// `racelab bench learners`: minutes per lab, measured on real learners. Each student's progress
/// file (`.racelab/progress.json`, written by their own `racelab check` and `racelab hint`) keeps
/// when they began each lab and when it first passed (`LabTimeline`). Handed in, a class's files
/// give per lab: how many began it, how many passed, and how long it took them.
public enum LearnerMinutes {
    public struct Row: Sendable, Equatable {
        public var lab: String
        public var started: Int
        public var passed: Int
        /// Minutes from beginning the lab to its first passing check, over those who passed.
        public var medianMinutes: Double?
        /// Four in five who passed took at most this long.
        public var slowMinutes: Double?
        public var medianChecks: Double?
        public var medianHints: Double?
    }

    /// What was read: each progress file found, and each one that could not be read (with why).
    public struct Collection: Sendable {
        public var files: [(path: String, progress: StudentProgress)] = []
        public var skipped: [String] = []
    }

    public struct InputError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The progress files at `paths`. A file is read as one progress file; a folder gives its own
    /// `.racelab/progress.json` and that of each of its sub-folders (a folder of students' kits, as
    /// `racelab grade-all` takes). A path that is not there, or a folder with no progress file
    /// at all, is an error; a file that cannot be read is skipped and named.
    public static func collect(_ paths: [String]) throws(InputError) -> Collection {
        var collection = Collection()
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw InputError(
                    description:
                        "'\(path)' is not there: give progress files (.racelab/progress.json) or folders of students' kits"
                )
            }
            let found =
                isFolder.boolValue ? progressFiles(in: URL(fileURLWithPath: path)) : [URL(fileURLWithPath: path)]
            guard !found.isEmpty else {
                throw InputError(
                    description:
                        "no progress file in '\(path)': looked for \(StudentProgress.relativePath) in it and in each of its sub-folders"
                )
            }
            for file in found {
                switch StudentProgress.read(from: file) {
                case .fresh(let progress): collection.files.append((file.path, progress))
                case .corrupt(let problem): collection.skipped.append(problem)
                }
            }
        }
        return collection
    }

    static func progressFiles(in folder: URL) -> [URL] {
        let own = folder.appendingPathComponent(StudentProgress.relativePath)
        let subFolders = SubmissionFolder.entries(in: folder).filter { $0.kind == .folder }
        return ([own] + subFolders.map { $0.url.appendingPathComponent(StudentProgress.relativePath) })
            .filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// One row per lab, in the order given (the learning path).
    public static func rows(labs: [String], progresses: [StudentProgress]) -> [Row] {
        labs.map { lab in
            let timelines = progresses.compactMap { $0.timelines[lab] }
            let passed = timelines.filter { $0.firstPassed != nil }
            return Row(
                lab: lab, started: timelines.count, passed: passed.count,
                medianMinutes: percentile(passed.compactMap(\.minutesToPass), 50),
                slowMinutes: percentile(passed.compactMap(\.minutesToPass), 80),
                medianChecks: percentile(passed.map { Double($0.checksToPass) }, 50),
                medianHints: percentile(passed.map { Double($0.hintsToPass) }, 50))
        }
    }

    /// The nearest-rank percentile (the smallest value with at least `p` percent at or below it).
    static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    public static func table(_ rows: [Row], students: Int) -> String {
        func minutes(_ value: Double?) -> String { value.map { String(format: $0 < 10 ? "%.1f" : "%.0f", $0) } ?? "-" }
        func count(_ value: Double?) -> String { value.map { String(format: "%g", $0) } ?? "-" }
        let header = ["#", "LAB", "BEGAN", "PASSED", "MINUTES (MEDIAN)", "4 IN 5 WITHIN", "CHECKS", "HINTS"]
        let cells = rows.enumerated().map { index, row in
            [
                "\(index + 1)", row.lab, "\(row.started)", "\(row.passed)", minutes(row.medianMinutes),
                minutes(row.slowMinutes),
                count(row.medianChecks), count(row.medianHints)
            ]
        }
        var lines = GradeText.table(header, cells)
        lines.append("")
        lines.append(
            "\(students) progress file(s). MINUTES: from a student's first `racelab check` or hint of the lab (make lab"
        )
        lines.append("starts with a check) to their first passing check, over those who passed; CHECKS and HINTS: the")
        lines.append("median number each used up to that pass.")
        return lines.joined(separator: "\n")
    }
}
