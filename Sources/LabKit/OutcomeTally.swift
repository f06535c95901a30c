import CRaceLabSupport
import Foundation

/// What the driver adds up over one run's iterations: failures, TSan reports, metrics, notes,
/// and when (and at which explored point) anything was first detected.
struct OutcomeTally {
    var outcome = ScenarioOutcome()
    private var noteCounts: [String: Int] = [:]
    private let start = Date()
    private let reportsAtStart = rl_tsan_report_count()

    init() {
        outcome.tsanEnabled = rl_tsan_enabled() != 0
    }

    /// Adds one judged iteration; true when anything has been detected so far.
    mutating func add(_ run: ScenarioRun, findings: [IterationFindings]) -> Bool {
        let failures = findings.flatMap(\.failures)
        let point = run.exploration?.point
        if let point { outcome.explored.append(point.description) }
        outcome.iterationsRun = run.iteration
        outcome.failures += failures
        for (name, value) in run.metrics { outcome.metrics[name, default: 0] += value }
        for note in findings.flatMap(\.notes) { noteCounts[note, default: 0] += 1 }
        if !failures.isEmpty, outcome.firstFailureIteration == nil { outcome.firstFailureIteration = run.iteration }
        let reports = Int(rl_tsan_report_count() - reportsAtStart)
        if reports > 0, outcome.firstTSanIteration == nil { outcome.firstTSanIteration = run.iteration }
        outcome.tsanReports = reports
        let detected = !outcome.failures.isEmpty || reports > 0
        if detected, outcome.firstDetectionSeconds == nil {
            outcome.firstDetectionSeconds = Date().timeIntervalSince(start)
            outcome.firstDetectionPoint = point?.description
        }
        return detected
    }

    /// The outcome, with each note once ("... (3 iterations)").
    func finished() -> ScenarioOutcome {
        var outcome = outcome
        outcome.notes = noteCounts.sorted { $0.key < $1.key }.map {
            $0.value > 1 ? "\($0.key) (\($0.value) iterations)" : $0.key
        }
        outcome.elapsedSeconds = Date().timeIntervalSince(start)
        return outcome
    }
}
