import Foundation
import LabKit
import TSanReports

/// What the parent knows of one child run, read once from its outcome for every check of its
/// verdict (`VerdictCheck`): what the child claimed beside what the parent saw itself.
struct RunEvidence {
    let plan: ScenarioPlan
    let child: ChildOutcome
    /// The one result line, when the channel carried exactly one.
    let result: ScenarioOutcome?
    /// Unique TSan reports on standard error, in the order printed.
    let reports: [TSanReport]
    /// The result's invariant failures and those the harness streamed, once each: a child that
    /// hung or crashed sent no result, but the failures it found before that; and a forged
    /// result cannot hide a failure the harness streamed.
    let failures: [InvariantFailure]
    /// The iteration of the last heartbeat.
    let lastIteration: Int?
    /// The child ended with TSan's exit status.
    let tsanExit: Bool
    /// TSan printed a warning.
    let tsanText: Bool
    /// The first line on standard error that says the child crashed.
    let crashLine: String?
    /// TSan ended the child with an error of its own (no race report): a crash, not a race.
    let tsanFatal: Bool
    /// Why it crashed, in words a student can act on.
    let cause: CrashCause?

    init(plan: ScenarioPlan, child: ChildOutcome) {
        self.plan = plan
        self.child = child
        result = child.result
        reports = TSanReportParser.parseUnique(child.stderr)
        var failures = result?.failures ?? []
        for failure in child.streamedFailures where !failures.contains(failure) { failures.append(failure) }
        self.failures = failures
        lastIteration = child.lastProgress?.iteration
        tsanExit = child.ending == .exited(TSanEnvironment.exitCode)
        tsanText = child.stderr.contains("WARNING: ThreadSanitizer:")
        crashLine = TSanReportParser.crashLine(in: child.stderr)
        let cause = CrashCause.find(in: child.stderr)
        self.cause = cause
        // TSan's own end (a fatal error of its runtime, its memory limit, or its deadly-signal
        // handler ending a program that trapped, e.g. on a Swift "Fatal error:", whose cause it
        // printed), not a report.
        tsanFatal =
            reports.isEmpty && !tsanText
            && (crashLine?.contains("ThreadSanitizer") == true
                || (cause != nil && child.stderr.contains("ThreadSanitizer:DEADLYSIGNAL"))
                || child.stderr.contains(TSanEnvironment.memoryLimitLine))
    }

    /// The sandbox could not put the child in its control groups (it said so and exited 125).
    var couldNotJoinGroup: Bool {
        child.ending == .exited(125) && child.results.isEmpty && child.stderr.contains(ChildGroup.joinFailed)
    }

    /// A detection of how the child ended (a crash, a hang): at its last iteration, at its end.
    func detection(_ detector: Detector, _ summary: String) -> Detection {
        Detection(detector: detector, iteration: lastIteration, seconds: child.elapsedSeconds, summary: summary)
    }
}
