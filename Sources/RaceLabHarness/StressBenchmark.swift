import Foundation
import LabKit

/// `racelab bench stress LIST`: how soon `racelab stress` shows each program's bug, each of its
/// schedules alone, and the same number of plain runs. A list names small buggy programs built with ThreadSanitizer (a
/// public benchmark's); for each, in several series of runs (different seeds), the first run in
/// which the bug shows (a crash, such as a failed assertion, or a hang: the ways such programs
/// show their bug; an exit status is not one, as some end with one as a matter of course) and the
/// first in which ThreadSanitizer reports something, each way.
public struct StressBenchmark: Sendable {
    public struct Program: Codable, Sendable, Equatable {
        public var name: String
        public var path: String
        public var arguments: [String]

        public init(name: String, path: String, arguments: [String]) {
            self.name = name
            self.path = path
            self.arguments = arguments
        }
    }

    /// The first run (1-based) of each series in which it showed; nil: not within the runs.
    public struct Firsts: Codable, Sendable, Equatable {
        public var bug: [Int?] = []
        /// How the bug showed in that run: "crash" or "hang".
        public var bugKind: [String?] = []
        public var report: [Int?] = []

        public init(bug: [Int?] = [], bugKind: [String?] = [], report: [Int?] = []) {
            self.bug = bug
            self.bugKind = bugKind
            self.report = report
        }
    }

    /// A way of running the programs: `racelab stress` as it is (its schedules in turn), one of
    /// its schedules alone, or plain.
    public enum Way: String, Codable, CodingKeyRepresentable, Sendable, CaseIterable {
        case stress, pauses, priority, plain

        var schedules: [StressSchedule] {
            switch self {
            case .stress: [.pauses, .priority]
            case .pauses: [.pauses]
            case .priority: [.priority]
            case .plain: []
            }
        }

        var title: String {
            switch self {
            case .stress: "racelab stress"
            case .pauses: "pauses only"
            case .priority: "priority only"
            case .plain: "plain runs"
            }
        }
    }

    public struct Row: Codable, Sendable, Equatable {
        public var program: String
        /// What each way found.
        public var ways: [Way: Firsts]

        public init(program: String, ways: [Way: Firsts]) {
            self.program = program
            self.ways = ways
        }
    }

    public var programs: [Program]
    public var runs: Int
    public var series: Int
    public var seed: UInt64
    public var timeout: Double
    public var preload: URL

    public init(programs: [Program], runs: Int, series: Int, seed: UInt64, timeout: Double, preload: URL) {
        self.programs = programs
        self.runs = runs
        self.series = series
        self.seed = seed
        self.timeout = timeout
        self.preload = preload
    }

    /// The list: one program a line, "NAME PATH [ARGS...]" (words split at spaces); blank lines
    /// and lines starting with # skipped; a relative PATH is taken from the list's folder.
    public static func programs(inList text: String, folder: URL) throws(UsageError) -> [Program] {
        var programs: [Program] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let first = words.first, !first.hasPrefix("#") else { continue }
            guard words.count >= 2 else {
                throw UsageError("line \(number + 1) of the list names no program: each line is NAME PATH [ARGS...]")
            }
            let path =
                words[1].hasPrefix("/")
                ? words[1] : folder.appendingPathComponent(words[1]).standardizedFileURL.path
            programs.append(Program(name: first, path: path, arguments: Array(words.dropFirst(2))))
        }
        guard !programs.isEmpty else { throw UsageError("the list names no program: each line is NAME PATH [ARGS...]") }
        return programs
    }

    /// Series s uses seeds seed + 10000 s + (run - 1).
    public func measure(onProgress: (String) -> Void = { _ in }) -> [Row] {
        programs.map { program in
            var row = Row(program: program.name, ways: [:])
            for way in Way.allCases {
                var firsts = Firsts()
                for index in 0..<series {
                    onProgress("\(program.name): \(way.title), series \(index + 1) of \(series)")
                    let found = search(program, way: way, seed: seed &+ UInt64(index) &* 10_000)
                    firsts.bug.append(found.bug?.run)
                    firsts.bugKind.append(found.bug?.kind)
                    firsts.report.append(found.report)
                }
                row.ways[way] = firsts
            }
            return row
        }
    }

    /// Runs until both a bug and a report have shown, or the runs are done. A third hang also
    /// ends the search: every further run of a program that deadlocks would wait out the time
    /// limit.
    func search(_ program: Program, way: Way, seed: UInt64) -> (bug: (run: Int, kind: String)?, report: Int?) {
        var stress = ProgramStress(
            program: URL(fileURLWithPath: program.path), arguments: program.arguments, runs: runs, seed: seed,
            timeout: timeout, preempts: way != .plain, keepsGoing: true, preload: preload)
        stress.schedules = way.schedules
        var bug: (run: Int, kind: String)?
        var report: Int?
        var hangs = 0
        var counted: Int?
        for index in 1...runs {
            let (run, _) = stress.runOnce(index: index, seed: seed &+ UInt64(index - 1), counted: counted)
            counted = ProgramStress.counted(after: run) ?? counted
            if bug == nil, let finding = run.finding(ignoring: ["report", "exit"]) { bug = (index, finding.category) }
            if report == nil, !run.reportKinds.isEmpty { report = index }
            if bug != nil, report != nil { break }
            if case .hung = run.ending { hangs += 1 }
            if hangs == 3 { break }
        }
        return (bug, report)
    }

    /// The rows as a Markdown table: per way, in how many series the bug showed, and the first
    /// run of each (with how it showed, when not as a crash); then the same for ThreadSanitizer's
    /// reports, racelab stress as it is against plain runs.
    public func table(_ rows: [Row]) -> String {
        func cell(_ firsts: [Int?], _ kinds: [String?] = []) -> String {
            let shown = firsts.compactMap { $0 }
            let runs = firsts.enumerated().map { index, first in
                guard let first else { return "–" }
                let kind = index < kinds.count ? kinds[index] : nil
                return kind == nil || kind == "crash" ? "\(first)" : "\(first) \(kind!)"
            }.joined(separator: ", ")
            return "\(shown.count)/\(firsts.count) (\(runs))"
        }
        let reported: [Way] = [.stress, .plain]
        let titles = Way.allCases.map { "bug shows: \($0.title)" } + reported.map { "TSan report: \($0.title)" }
        var lines = [
            "| program | " + titles.joined(separator: " | ") + " |",
            "|---|" + titles.map { _ in "---|" }.joined()
        ]
        let empty = Firsts()
        for row in rows {
            let bugs = Way.allCases.map { cell(row.ways[$0, default: empty].bug, row.ways[$0, default: empty].bugKind) }
            let reports = reported.map { cell(row.ways[$0, default: empty].report) }
            lines.append("| \(row.program) | " + (bugs + reports).joined(separator: " | ") + " |")
        }
        let picks: [(Row) -> [Int?]] =
            Way.allCases.map { way in { $0.ways[way, default: empty].bug } }
            + reported.map { way in { $0.ways[way, default: empty].report } }
        func everySeries(_ pick: (Row) -> [Int?]) -> Int { rows.count { pick($0).allSatisfy { $0 != nil } } }
        func anySeries(_ pick: (Row) -> [Int?]) -> Int { rows.count { pick($0).contains { $0 != nil } } }
        lines.append(
            "| **found in every series** | "
                + picks.map { "**\(everySeries($0)) of \(rows.count)**" }.joined(separator: " | ")
                + " |")
        lines.append(
            "| found in some series | " + picks.map { "\(anySeries($0)) of \(rows.count)" }.joined(separator: " | ")
                + " |")
        return lines.joined(separator: "\n")
    }
}
