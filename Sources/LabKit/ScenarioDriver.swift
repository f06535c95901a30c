import CRaceLabSupport
import Foundation

/// What to run: one lab variant, in one mode, for some iterations.
public struct ScenarioPlan: Codable, Sendable, Equatable {
    public var lab: String
    public var variant: String
    public var mode: RunMode
    public var iterations: Int
    public var seed: UInt64
    /// Stop after the first iteration in which anything was detected (saves time on broken variants).
    public var stopAtFirstDetection: Bool

    public init(lab: String, variant: String, mode: RunMode, iterations: Int, seed: UInt64, stopAtFirstDetection: Bool = true) {
        self.lab = lab
        self.variant = variant
        self.mode = mode
        self.iterations = iterations
        self.seed = seed
        self.stopAtFirstDetection = stopAtFirstDetection
    }
}

/// What the scenario itself saw over all iterations (TSan's own text is parsed separately).
public struct ScenarioOutcome: Codable, Sendable, Equatable {
    public var iterationsRun = 0
    public var failures: [InvariantFailure] = []
    public var firstFailureIteration: Int?
    /// TSan reports counted in-process by the `__tsan_on_report` hook.
    public var tsanReports = 0
    public var firstTSanIteration: Int?
    /// Seconds from the start to the end of the first iteration that detected anything.
    public var firstDetectionSeconds: Double?
    public var elapsedSeconds = 0.0
    public var notes: [String] = []
    public var metrics: [String: Double] = [:]
    /// Whether the process running the scenario had ThreadSanitizer.
    public var tsanEnabled = false

    public init() {}
}

/// Runs a scenario's iterations on the main thread (in a child process, or in-process in tests).
public enum ScenarioDriver {
    /// Largest stress delay at a checkpoint, in microseconds.
    static let stressJitterMicroseconds = 400

    /// `onFailure` hears of each invariant failure of `play` as soon as it is recorded.
    @_spi(LabAuthoring) public static func run(
        _ lab: PlayableLab, plan: ScenarioPlan, onIteration: (Int) -> Void = { _ in },
        onFailure: @escaping (InvariantFailure) -> Void = { _ in }
    ) -> ScenarioOutcome {
        precondition(Thread.isMainThread, "scenarios drive the UI: run them on the main thread")
        var outcome = ScenarioOutcome()
        outcome.tsanEnabled = rl_tsan_enabled() != 0
        let start = Date()
        let reportsAtStart = rl_tsan_report_count()
        var noteCounts: [String: Int] = [:]
        _ = MainThreadChecker.shared.drain()

        for iteration in 1...max(plan.iterations, 1) {
            onIteration(iteration)
            let seed = SeededRandom.hash(plan.seed, UInt64(iteration))
            Checkpoint.reset()
            rl_trace_begin_iteration(Int64(iteration))
            Checkpoint.setJitter(seed: seed, maxMicroseconds: plan.mode == .stress ? stressJitterMicroseconds : 0)
            let run = ScenarioRun(mode: plan.mode, iteration: iteration, seed: seed, onFailure: onFailure)
            lab.play(variant: plan.variant, in: run)
            Checkpoint.setJitter(seed: 0, maxMicroseconds: 0)

            var failures = run.failures
            for violation in MainThreadChecker.shared.drain() {
                failures.append(InvariantFailure(
                    iteration: iteration,
                    message: "UI rule broken, \(violation.what)",
                    file: violation.file, line: violation.line))
            }
            outcome.iterationsRun = iteration
            outcome.failures += failures
            for (name, value) in run.metrics { outcome.metrics[name, default: 0] += value }
            for note in run.notes { noteCounts[note, default: 0] += 1 }
            if !failures.isEmpty, outcome.firstFailureIteration == nil { outcome.firstFailureIteration = iteration }
            let reports = Int(rl_tsan_report_count() - reportsAtStart)
            if reports > 0, outcome.firstTSanIteration == nil { outcome.firstTSanIteration = iteration }
            outcome.tsanReports = reports
            let detected = !outcome.failures.isEmpty || reports > 0
            if detected, outcome.firstDetectionSeconds == nil {
                outcome.firstDetectionSeconds = Date().timeIntervalSince(start)
            }
            if detected && plan.stopAtFirstDetection { break }
        }
        outcome.notes = noteCounts.sorted { $0.key < $1.key }.map { $0.value > 1 ? "\($0.key) (\($0.value) iterations)" : $0.key }
        outcome.elapsedSeconds = Date().timeIntervalSince(start)
        return outcome
    }
}
