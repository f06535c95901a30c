import Foundation
import LabKit
import TSanReports

/// One detector firing in one run.
public struct Detection: Codable, Sendable, Equatable {
    public var detector: Detector
    /// The iteration in which it fired (when known).
    public var iteration: Int?
    /// Seconds from the start of the scenario (when known).
    public var seconds: Double?
    public var summary: String
}

/// The result of one child run of one lab variant.
public struct RunVerdict: Codable, Sendable {
    public var lab: String
    public var variant: String
    public var kind: VariantKind
    public var mode: RunMode
    public var seed: UInt64
    public var iterationsRequested: Int
    public var iterationsRun: Int
    public var detections: [Detection]
    /// Unique TSan reports, in the order printed.
    public var reports: [TSanReport]
    /// Invariant failures (at most the first 20).
    public var failures: [InvariantFailure]
    /// Where each thread was when the watchdog killed a hung child.
    public var hangPositions: [ThreadPosition]
    /// The run could not be judged (child did not start, sent no result, rejected its arguments):
    /// in words. Set with `cannotJudge` or `markForged`, with its `harnessProblem`.
    public private(set) var harnessError: String?
    /// Why the run could not be judged, as a type: what the grader reads, never the wording.
    public private(set) var harnessProblem: HarnessProblem?
    /// A result line the harness did not write (lab code forged it): set with `markForged`.
    public private(set) var isForged: Bool?
    public var notes: [String]
    public var metrics: [String: Double]
    public var elapsedSeconds: Double
    /// The command that replays this run.
    public var reproduce: String
    /// The interleaving of the last iteration run (with `--trace`).
    public var trace: Trace?
    /// Explore mode: the point at which the bug showed ("1:3"), and how many points were explored.
    public var point: String?
    public var explored: Int?
    /// Something outside the run may have shaped it: a SIGKILL the harness did not send (the
    /// OOM killer, another process), processes of the child's left running. Such a run still
    /// counts for its student, but its outcome is not reused for anyone else (`GradeMemo`).
    public var interference: String?
    /// Checks the grader makes that this system could not make in this run (`MissingCheck`);
    /// nil where it made them all (Linux).
    public var wentWithout: [MissingCheck]? = nil
    /// Where the run's time went (`racelab run --profile`): beside the verdict, never part of it.
    public var profile: RunProfile? = nil

    public var detected: Bool { !detections.isEmpty }

    /// This run's result line was forged: `detail` says how (after `VerdictBuilder.forgedMarker`).
    public mutating func markForged(_ detail: String) {
        cannotJudge(.forged, "\(VerdictBuilder.forgedMarker): \(detail)")
    }

    /// This run cannot be judged, for `problem`, said as `message`.
    public mutating func cannotJudge(_ problem: HarnessProblem, _ message: String) {
        harnessProblem = problem
        harnessError = message
        if problem == .forged { isForged = true }
    }

    /// A forged result, as a fact of the run (false for runs saved before it was recorded).
    public var wasForged: Bool { isForged == true }
    public func fired(_ detector: Detector) -> Bool { detections.contains { $0.detector == detector } }
}

/// Judges one child's outcome. The child's own result is believed only as far as the parent's
/// own observations agree with it: a run is clean only when exactly one result line came, it
/// and the channel report no failure, TSan printed nothing and left no exit status 66, and the
/// child exited normally. Anything else is a detection or a run that cannot be judged, never a
/// pass. Each concern is a check of its own in `checks` (`VerdictCheck`).
public enum VerdictBuilder {
    public static func verdict(plan: ScenarioPlan, kind: VariantKind, child: ChildOutcome, reproduce: String)
        -> RunVerdict
    {
        let run = RunEvidence(plan: plan, child: child)
        var verdict = RunVerdict(
            lab: plan.lab, variant: plan.variant, kind: kind, mode: plan.mode, seed: plan.seed,
            iterationsRequested: plan.iterations,
            iterationsRun: run.result?.iterationsRun ?? run.lastIteration ?? 0,
            detections: [], reports: run.reports, failures: Array(run.failures.prefix(20)),
            hangPositions: [], harnessError: nil, notes: run.result?.notes ?? [], metrics: run.result?.metrics ?? [:],
            elapsedSeconds: child.elapsedSeconds, reproduce: reproduce, trace: nil)
        for check in checks { check.judge(run, &verdict) }
        verdict.profile = RunProfile(child)
        return verdict
    }

    /// Every concern a run is judged on, in order: its detections come in this order; how the
    /// child ended (one check for each way) before whether its result can be trusted, whose
    /// word is the last; then the notes.
    static let checks: [any VerdictCheck] = [
        ThreadSanitizerCheck(), InvariantCheck(), LimitCheck(), StartCheck(), SignalCheck(), WatchdogKillCheck(),
        ExitStatusCheck(), ResultTrustCheck(), OutputCutCheck(), LeftoverProcessCheck()
    ]

    /// Starts the harness error of a run whose channel carried a forged result.
    public static let forgedMarker = "forged result"
}

extension RunVerdict {
    /// The shards of one explore run (`ExplorationShard`), as one verdict: everything any shard
    /// saw, the first shard that caught something giving the point and the command, iterations
    /// added up, the time of the slowest.
    public static func merging(_ shards: [RunVerdict]) -> RunVerdict? {
        guard var merged = shards.first else { return nil }
        let first = shards.first { $0.detected } ?? shards.first { $0.harnessError != nil } ?? merged
        merged.reproduce = first.reproduce
        merged.point = first.point
        merged.trace = first.trace
        if let failed = shards.first(where: { $0.harnessProblem != nil }), let problem = failed.harnessProblem {
            merged.cannotJudge(problem, failed.harnessError ?? "")
        }
        merged.interference = shards.lazy.compactMap(\.interference).first
        let without = Set(shards.flatMap { $0.wentWithout ?? [] })
        merged.wentWithout = without.isEmpty ? nil : without.sorted()
        merged.iterationsRequested = shards.map(\.iterationsRequested).max() ?? merged.iterationsRequested
        merged.iterationsRun = shards.map(\.iterationsRun).reduce(0, +)
        merged.explored = shards.contains { $0.explored != nil } ? shards.compactMap(\.explored).reduce(0, +) : nil
        merged.elapsedSeconds = shards.map(\.elapsedSeconds).max() ?? 0
        // One detection per detector (the first shard's), as one child would report it.
        var detections: [Detection] = []
        for detection in shards.flatMap(\.detections)
        where !detections.contains(where: { $0.detector == detection.detector }) {
            detections.append(detection)
        }
        merged.detections = detections
        merged.reports = shards.flatMap(\.reports)
        merged.failures = Array(shards.flatMap(\.failures).prefix(20))
        merged.hangPositions = shards.flatMap(\.hangPositions)
        var notes: [String] = []
        for note in shards.flatMap(\.notes) where !notes.contains(note) { notes.append(note) }
        merged.notes = notes
        merged.metrics = shards.map(\.metrics).reduce(into: [:]) { total, metrics in
            for (name, value) in metrics { total[name, default: 0] += value }
        }
        merged.profile = RunProfile.sum(shards.compactMap(\.profile))  // every shard's child
        return merged
    }
}
