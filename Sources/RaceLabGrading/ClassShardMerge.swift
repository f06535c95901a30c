import Foundation

/// `racelab grade-merge`: the output folders of `grade-all --shard K/N`, every K of one N, put
/// together as one unsharded grade-all would have written them: summary.csv with its header
/// and every row in grade-all's order, and every student's report. Everything is checked
/// before anything is written: the shards must be of one class (kit, seed, labs, format,
/// policy, the same submissions), each given once, none missing, each finished.
public enum ClassShardMerge {
    public struct RefusedError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public struct Summary: Sendable {
        public var shards: Int
        public var students: Int
        /// Reports and build logs copied.
        public var files: Int
        public var summaryFile: URL
        /// Students whose row says the harness failed (grade-all's exit 1).
        public var harnessErrors: [String]
    }

    /// One shard's folder, read and checked on its own.
    struct Shard {
        var folder: URL
        var record: ClassShardRecord
        var shard: ClassShard
        /// summary.csv's header and rows (a row per student, in the record's order).
        var header: String
        var rows: [String]
        /// The other files: the students' reports and build logs.
        var files: [String]
    }

    public static func merge(_ folders: [URL], into output: URL) throws(RefusedError) -> Summary {
        let output = output.standardizedFileURL
        let shards = try folders.map { folder throws(RefusedError) in try read(folder.standardizedFileURL) }
        if let inside = shards.first(where: { $0.folder.path == output.path }) {
            throw RefusedError(
                "--output '\(output.path)' is shard \(inside.shard)'s own folder; give a new folder for the merge")
        }
        if FileManager.default.fileExists(atPath: output.appendingPathComponent(ClassShardRecord.fileName).path) {
            throw RefusedError(
                "--output '\(output.path)' holds a shard (\(ClassShardRecord.fileName)); "
                    + "give a new folder for the merge"
            )
        }
        try checkOneClass(shards)
        let rows = try checkEveryStudentOnce(shards)
        do {
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        } catch {
            throw RefusedError("cannot create '\(output.path)': \(error.localizedDescription)")
        }
        var copied = 0
        for shard in shards {
            for name in shard.files {
                let target = output.appendingPathComponent(name)
                do {
                    let data = try Data(contentsOf: shard.folder.appendingPathComponent(name))
                    try data.write(to: target, options: .atomic)
                } catch {
                    throw RefusedError("cannot copy \(name) into '\(output.path)': \(error.localizedDescription)")
                }
                copied += 1
            }
        }
        // grade-all's order: its entries sorted by name (SubmissionFolder.entries).
        let sorted = rows.sorted { $0.student < $1.student }
        let summary = output.appendingPathComponent("summary.csv")
        let text = ([shards[0].header] + sorted.map(\.row)).joined(separator: "\n") + "\n"
        do { try Data(text.utf8).write(to: summary, options: .atomic) } catch {
            throw RefusedError("cannot write \(summary.path): \(error.localizedDescription)")
        }
        let errors = sorted.filter { fields(of: $0.row).dropFirst().first == "error" }.map(\.student)
        return Summary(
            shards: shards.count, students: sorted.count, files: copied, summaryFile: summary, harnessErrors: errors)
    }

    static func read(_ folder: URL) throws(RefusedError) -> Shard {
        let record: ClassShardRecord?
        do { record = try ClassShardRecord.read(in: folder) } catch {
            throw RefusedError(
                "cannot read '\(folder.appendingPathComponent(ClassShardRecord.fileName).path)': "
                    + error.localizedDescription
            )
        }
        guard let record, let shard = record.classShard else {
            throw RefusedError(
                "'\(folder.path)' is not a shard's folder (no readable \(ClassShardRecord.fileName)): "
                    + "give the --output folders of racelab grade-all --shard K/N"
            )
        }
        let summary = folder.appendingPathComponent("summary.csv")
        guard let data = FileManager.default.contents(atPath: summary.path) else {
            throw RefusedError("shard \(shard) in '\(folder.path)' has no summary.csv: grade that shard again")
        }
        let records = Self.records(String(decoding: data, as: UTF8.self))
        let header = ClassGrader.summaryCSV([], labs: record.labs).dropLast().description
        guard records.first == header else {
            throw RefusedError(
                "shard \(shard)'s summary.csv in '\(folder.path)' does not start with grade-all's header "
                    + "for its labs (\(record.labs.joined(separator: ", ")))"
            )
        }
        let rows = Array(records.dropFirst())
        guard rows.count == record.students.count else {
            throw RefusedError(
                "shard \(shard) in '\(folder.path)' did not finish: its summary.csv has \(rows.count) "
                    + "of its \(record.students.count) students; grade that shard again"
            )
        }
        if let (student, _) = zip(record.students, rows).first(where: { !$1.hasPrefix(ClassGrader.csv($0) + ",") }) {
            throw RefusedError(
                "shard \(shard)'s summary.csv in '\(folder.path)' does not have its students in order "
                    + "('\(student)' first out of place); grade that shard again"
            )
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        let files = names.filter { name in
            !name.hasPrefix(".") && name != "summary.csv" && name != ClassShardRecord.fileName
                && SubmissionFolder.kind(of: folder.appendingPathComponent(name)) == .file
        }
        return Shard(folder: folder, record: record, shard: shard, header: header, rows: rows, files: files)
    }

    /// Every shard of one split of one class: what would make their grades differ is the same.
    static func checkOneClass(_ shards: [Shard]) throws(RefusedError) {
        guard let first = shards.first else { throw RefusedError("give the shards' folders to merge") }
        for other in shards.dropFirst() {
            guard other.shard.count == first.shard.count else {
                throw RefusedError(
                    "'\(first.folder.path)' is shard \(first.shard) but '\(other.folder.path)' is shard "
                        + "\(other.shard): give the shards of one split"
                )
            }
            let (one, two) = (first.record, other.record)
            let differences: [(String, Bool, String, String)] = [
                ("kit manifest", one.kitManifest == two.kitManifest, one.kitManifest, two.kitManifest),
                ("seed", one.seed == two.seed, "\(one.seed)", "\(two.seed)"),
                ("labs", one.labs == two.labs, one.labs.joined(separator: ","), two.labs.joined(separator: ",")),
                ("report format", one.reportFormat == two.reportFormat, one.reportFormat, two.reportFormat),
                (
                    "grading policy", one.policy == two.policy, words(one.policy, two.policy),
                    words(two.policy, one.policy)
                ),
                (
                    "exercise checks", one.exerciseChecks == two.exerciseChecks, one.exerciseChecks ? "on" : "OFF",
                    two.exerciseChecks ? "on" : "OFF"
                ),
                (
                    "submissions", one.classDigest == two.classDigest && one.classSize == two.classSize,
                    "\(one.classSize) entries", "\(two.classSize) entries"
                )
            ]
            if let (what, _, mine, theirs) = differences.first(where: { !$0.1 }) {
                throw RefusedError(
                    "shards \(first.shard) and \(other.shard) are not of one class: their \(what) differs "
                        + "('\(first.folder.path)': \(mine); '\(other.folder.path)': \(theirs))"
                )
            }
        }
        var seen: [Int: Shard] = [:]
        for shard in shards {
            if let earlier = seen[shard.shard.index] {
                throw RefusedError(
                    "shard \(shard.shard) is given twice ('\(earlier.folder.path)' and '\(shard.folder.path)'): "
                        + "give each shard once"
                )
            }
            seen[shard.shard.index] = shard
        }
        let count = first.shard.count
        let missing = (1...count).filter { seen[$0] == nil }.map { "\($0)/\(count)" }
        if !missing.isEmpty {
            let given = seen.keys.sorted().map { "\($0)/\(count)" }.joined(separator: ", ")
            let which = missing.count == 1 ? "shard \(missing[0]) is" : "shards \(missing.joined(separator: ", ")) are"
            throw RefusedError("\(which) missing (given: \(given)): give every shard's folder")
        }
    }

    /// A policy as a difference from another shows: its partial credit, else its passes' settings.
    static func words(_ policy: GradingPolicy, _ other: GradingPolicy) -> String {
        guard policy.partialCredit == other.partialCredit else {
            return policy.partialCredit ? "partial credit" : "all or nothing"
        }
        return Grader.passes.map { String(policy.runs(for: $0)) }.joined(separator: "/") + " runs, "
            + "\(Grader.points(policy.pointsPerLab)) points, stress target \(policy.target)"
    }

    /// Every student in one shard only, and the shards together the whole class.
    static func checkEveryStudentOnce(_ shards: [Shard]) throws(RefusedError) -> [(student: String, row: String)] {
        var rows: [(student: String, row: String)] = []
        var owner: [String: Shard] = [:]
        for shard in shards {
            for (student, row) in zip(shard.record.students, shard.rows) {
                if let earlier = owner[student] {
                    throw RefusedError(
                        "student '\(student)' is in two shards: \(earlier.shard) ('\(earlier.folder.path)') "
                            + "and \(shard.shard) ('\(shard.folder.path)')"
                    )
                }
                owner[student] = shard
                rows.append((student, row))
            }
        }
        let size = shards[0].record.classSize
        guard rows.count == size else {
            throw RefusedError(
                "the shards hold \(rows.count) students but their class has \(size): grade every shard of it again")
        }
        return rows
    }

    /// The records of a CSV text: its lines, but a quoted cell may hold a line break.
    static func records(_ text: String) -> [String] {
        var records: [String] = []
        var current: [UInt8] = []
        var quoted = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: "\n") && !quoted {
                records.append(String(decoding: current, as: UTF8.self))
                current = []
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty { records.append(String(decoding: current, as: UTF8.self)) }
        return records
    }

    /// The cells of one CSV record, unquoted.
    static func fields(of record: String) -> [String] {
        var fields: [String] = []
        var current: [UInt8] = []
        var quoted = false
        var previous: UInt8 = 0
        for byte in record.utf8 {
            switch byte {
            case UInt8(ascii: "\""):
                // A doubled quote inside a quoted cell is one quote.
                if !quoted && previous == UInt8(ascii: "\"") { current.append(byte) }
                quoted.toggle()
            case UInt8(ascii: ",") where !quoted:
                fields.append(String(decoding: current, as: UTF8.self))
                current = []
            default:
                current.append(byte)
            }
            previous = byte
        }
        fields.append(String(decoding: current, as: UTF8.self))
        return fields
    }
}
