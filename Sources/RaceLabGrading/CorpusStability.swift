import Foundation
import LabKit
import RaceLabHarness

/// "Same code, same verdict": the grading corpus graded under several conditions (base seeds
/// × busy loops beside the grader, `racelab bench corpus --seeds K --load N,M`), and every
/// corpus file whose verdict (full marks or not) is not the same under all of them: a flip.
/// A verdict should depend on the code only; each flip is a file whose mark is luck.
public enum CorpusStability {
    /// Condition i's base seed is the given seed + i × this. The grader derives a pass's seeds
    /// from the base (scripted S+k, explore S+500+k, stress S+1000+k for run k), so a stride of
    /// 10,000 keeps every child's seed in one condition apart from every other condition's.
    public static let seedStride: UInt64 = 10_000
    public static let seedsRange = 1...100
    public static let loadRange = 0...64

    /// One condition: a base seed and how many busy loops ran beside the grader.
    public struct Condition: Codable, Sendable, Equatable, Hashable {
        public var seed: UInt64
        public var load: Int
        public init(seed: UInt64, load: Int) {
            self.seed = seed
            self.load = load
        }
        /// "seed 2026, load 3"
        public var name: String { "seed \(seed), load \(load)" }
    }

    /// What to run: every base seed under every load (loads outer, so each load is started once).
    public struct Grid: Sendable, Equatable {
        public var seeds: [UInt64]
        public var loads: [Int]
        public init(seeds: [UInt64], loads: [Int]) {
            self.seeds = seeds
            self.loads = loads
        }

        /// `count` base seeds from `base`: base, base + 10,000, base + 20,000...
        public init(base: UInt64, seeds count: Int, loads: [Int]) {
            self.init(seeds: (0..<count).map { base &+ UInt64($0) &* CorpusStability.seedStride }, loads: loads)
        }

        /// `--seed`, `--seeds` and `--load` of `racelab bench corpus`, checked before any work:
        /// a bad value is a one-line `UsageError` saying what is valid (exit status 2).
        /// `randomSeed`: the base when `--seed` is not given.
        public init(_ arguments: ParsedArguments, randomSeed: @autoclosure () -> UInt64) throws(UsageError) {
            let count = try arguments[CorpusStability.seedsOption] ?? 1
            let loads = try arguments[CorpusStability.loadOption] ?? [0]
            self.init(base: try arguments[CommonOptions.seed] ?? randomSeed(), seeds: count, loads: loads)
        }

        public var conditions: [Condition] { loads.flatMap { load in seeds.map { Condition(seed: $0, load: load) } } }
        /// More than one condition: flips can be looked for.
        public var isGrid: Bool { conditions.count > 1 }
    }

    /// `--seeds K` of `racelab bench` (`bench stress` takes it too: K series of runs).
    public static let seedsOption = Option.number(
        "seeds", "K", "corpus: under K base seeds (S, S+10000, S+20000...); stress: K series of runs (default 3)",
        in: seedsRange)

    /// `--load N[,M...]` of `racelab bench corpus`.
    public static let loadOption = Option(
        "load", "N[,M...]",
        "corpus: beside N busy-loop processes; several: each in turn, then the files whose verdict flips",
        parse: loads)

    /// `--load`: one whole number of busy loops, or a comma-separated list ("0,3").
    static func loads(_ text: String) throws(UsageError) -> [Int] {
        let problem = UsageError(
            "--load must be a whole number of busy loops from \(loadRange.lowerBound) to \(loadRange.upperBound), "
                + "or a comma-separated list of them, each once (e.g. --load 0,3), not '\(text)'")
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        var loads: [Int] = []
        for item in items {
            guard let load = Int(item), loadRange.contains(load), !loads.contains(load) else { throw problem }
            loads.append(load)
        }
        return loads
    }

    /// One condition's grades.
    public struct Run: Codable, Sendable {
        public var condition: Condition
        public var entries: [CorpusBenchmark.Entry]
        public var seconds: Double
        public init(condition: Condition, entries: [CorpusBenchmark.Entry], seconds: Double) {
            self.condition = condition
            self.entries = entries
            self.seconds = seconds
        }
    }

    /// Every condition of `grid` graded by `grade`, loads outer: each load's busy loops
    /// (`BusyLoad`) started once, before `onLoad` hears it, and stopped after its last seed;
    /// `onRun` hears each condition's grades, timed, as they come. Throws the one-line reason
    /// when a busy loop cannot be started.
    public static func run(
        _ grid: Grid, onLoad: (Int) -> Void = { _ in }, grade: (Condition) -> [CorpusBenchmark.Entry],
        onRun: (Run) -> Void = { _ in }
    ) throws(UsageError) -> [Run] {
        var runs: [Run] = []
        for load in grid.loads {
            let busy = try BusyLoad(count: load)
            defer { busy.stop() }
            onLoad(load)
            for seed in grid.seeds {
                let condition = Condition(seed: seed, load: load)
                let started = Date()
                let entries = grade(condition)
                let run = Run(condition: condition, entries: entries, seconds: Date().timeIntervalSince(started))
                runs.append(run)
                onRun(run)
            }
        }
        return runs
    }

    /// One file's verdict under one condition.
    public struct Verdict: Codable, Sendable, Equatable {
        public var seed: UInt64
        public var load: Int
        /// Full marks.
        public var passed: Bool
        public var score: Double
        public var maxScore: Double
        public var status: LabGrade.Status

        /// "seed 2026 load 3: FAIL 0/10 (failed)"
        public var text: String {
            "seed \(seed) load \(load): \(passed ? "PASS" : "FAIL") \(Grader.points(score))/\(Grader.points(maxScore)) (\(status.rawValue))"
        }
    }

    /// A file whose verdict was not the same under every condition.
    public struct Flip: Codable, Sendable, Equatable {
        public var lab: String
        public var variant: String
        public var kind: VariantKind
        public var about: String
        /// In the order of the conditions.
        public var verdicts: [Verdict]
        public var passes: Int { verdicts.filter(\.passed).count }
    }

    /// Per lab: how many corpus files it has and how many of them flipped.
    public struct LabFlips: Codable, Sendable, Equatable {
        public var lab: String
        public var files: Int
        public var flips: Int
    }

    /// Full marks or not: the verdict a student sees.
    static func passed(_ entry: CorpusBenchmark.Entry) -> Bool { entry.score >= entry.maxScore }

    /// Every file (lab and variant) whose verdict differs between two of `runs`, in the order
    /// the files were graded. A file missing from a run is not compared there.
    public static func flips(_ runs: [Run]) -> [Flip] {
        var order: [String] = []
        var verdicts: [String: [Verdict]] = [:]
        var first: [String: CorpusBenchmark.Entry] = [:]
        for run in runs {
            for entry in run.entries {
                let key = "\(entry.lab)/\(entry.variant)"
                if first[key] == nil {
                    first[key] = entry
                    order.append(key)
                }
                verdicts[key, default: []].append(
                    Verdict(
                        seed: run.condition.seed, load: run.condition.load, passed: passed(entry),
                        score: entry.score, maxScore: entry.maxScore, status: entry.status))
            }
        }
        return order.compactMap { key in
            guard let entry = first[key], let seen = verdicts[key], Set(seen.map(\.passed)).count > 1 else {
                return nil
            }
            return Flip(lab: entry.lab, variant: entry.variant, kind: entry.kind, about: entry.about, verdicts: seen)
        }
    }

    /// Files and flips per lab, in the order the labs were graded.
    public static func perLab(_ runs: [Run], flips: [Flip]) -> [LabFlips] {
        var labs: [String] = []
        var files: [String: Set<String>] = [:]
        for entry in runs.flatMap(\.entries) {
            if files[entry.lab] == nil { labs.append(entry.lab) }
            files[entry.lab, default: []].insert(entry.variant)
        }
        return labs.map { lab in
            LabFlips(lab: lab, files: files[lab]?.count ?? 0, flips: flips.filter { $0.lab == lab }.count)
        }
    }

    /// The flip table: per lab, files and flips; then every flipping file with its verdict
    /// under each condition.
    public static func flipTable(_ runs: [Run], flips: [Flip]) -> String {
        let rows = perLab(runs, flips: flips)
        let width = max(18, (rows.map(\.lab.count).max() ?? 0) + 2)
        let conditions = runs.map(\.condition)
        var out = [
            "Flips (a file whose verdict, full marks or not, differs between conditions) across \(conditions.count) condition(s): "
                + conditions.map(\.name).joined(separator: "; ")
        ]
        out.append("")
        out.append(CorpusBenchmark.pad("LAB", width) + "FILES  FLIPS")
        for row in rows {
            out.append(CorpusBenchmark.pad(row.lab, width) + CorpusBenchmark.pad("\(row.files)", 7) + "\(row.flips)")
        }
        out.append(
            CorpusBenchmark.pad("TOTAL", width) + CorpusBenchmark.pad("\(rows.map(\.files).reduce(0, +))", 7)
                + "\(flips.count)")
        for flip in flips {
            out.append("")
            out.append(
                "FLIP \(flip.lab) \(flip.variant) (\(flip.kind.rawValue)\(flip.about.isEmpty ? "" : ": \(flip.about)")): "
                    + "full marks in \(flip.passes) of \(flip.verdicts.count)")
            for verdict in flip.verdicts { out.append("  \(verdict.text)") }
        }
        return out.joined(separator: "\n")
    }

    /// `--json`: every condition's grades, the flips and the load used.
    public struct Report: Codable, Sendable {
        public var seeds: [UInt64]
        public var loads: [Int]
        /// What one unit of load is.
        public var load: String
        public var runs: [Run]
        public var flips: [Flip]
        public var flipsPerLab: [LabFlips]
        public var seconds: Double

        public init(grid: Grid, load: String, runs: [Run], seconds: Double) {
            self.seeds = grid.seeds
            self.loads = grid.loads
            self.load = load
            self.runs = runs
            self.flips = CorpusStability.flips(runs)
            self.flipsPerLab = CorpusStability.perLab(runs, flips: flips)
            self.seconds = seconds
        }
    }
}
