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
/// pass.
public enum VerdictBuilder {
    public static func verdict(plan: ScenarioPlan, kind: VariantKind, child: ChildOutcome, reproduce: String)
        -> RunVerdict
    {
        let result = child.result
        let reports = TSanReportParser.parseUnique(child.stderr)
        // A child that hung or crashed sent no result, but the failures it found before that.
        // Both are kept: a forged result cannot hide a failure the harness streamed.
        var failures = result?.failures ?? []
        for failure in child.streamedFailures where !failures.contains(failure) { failures.append(failure) }
        var verdict = RunVerdict(
            lab: plan.lab, variant: plan.variant, kind: kind, mode: plan.mode, seed: plan.seed,
            iterationsRequested: plan.iterations,
            iterationsRun: result?.iterationsRun ?? child.lastProgress?.iteration ?? 0,
            detections: [], reports: reports, failures: Array(failures.prefix(20)),
            hangPositions: [], harnessError: nil, notes: result?.notes ?? [], metrics: result?.metrics ?? [:],
            elapsedSeconds: child.elapsedSeconds, reproduce: reproduce, trace: nil)
        let lastIteration = child.lastProgress?.iteration

        let tsanExit = child.ending == .exited(TSanEnvironment.exitCode)
        let tsanText = child.stderr.contains("WARNING: ThreadSanitizer:")
        let crashLine = TSanReportParser.crashLine(in: child.stderr)
        // TSan ended the child with an error of its own (no race report): a crash, said below.
        let tsanFatal = reports.isEmpty && !tsanText && crashLine?.contains("ThreadSanitizer") == true
        if !reports.isEmpty || (result?.tsanReports ?? 0) > 0 || ((tsanExit || tsanText) && !tsanFatal) {
            let summary =
                reports.first.map(ReportSummary.oneLine)
                ?? ((result?.tsanReports ?? 0) > 0
                    ? "ThreadSanitizer reported \(result?.tsanReports ?? 0) warning(s)"
                    : "ThreadSanitizer found a problem (it ended the child with status \(TSanEnvironment.exitCode)) but its report could not be read")
            let more = reports.count > 1 ? " (+\(reports.count - 1) more)" : ""
            verdict.detections.append(
                Detection(
                    detector: .tsan, iteration: result?.firstTSanIteration ?? lastIteration,
                    seconds: result?.firstTSanIteration == nil ? nil : result?.firstDetectionSeconds,
                    summary: summary + more))
        }
        if let failure = failures.first {
            let more = failures.count > 1 ? " (+\(failures.count - 1) more)" : ""
            verdict.detections.append(
                Detection(
                    detector: .invariant, iteration: failure.iteration,
                    seconds: result.flatMap {
                        $0.firstFailureIteration == $0.firstTSanIteration || $0.firstTSanIteration == nil
                            ? $0.firstDetectionSeconds : nil
                    },
                    summary: failure.message + " (\(failure.shortLocation))" + more))
        }
        let cause = CrashCause.find(in: child.stderr)
        if let limit = child.limitReached {
            // The child was held to its limits (ChildLimits, a flood of output): the code's
            // doing, whatever else followed from it.
            verdict.detections.append(
                Detection(
                    detector: .crash, iteration: lastIteration, seconds: child.elapsedSeconds,
                    summary: limit))
        }
        switch child.ending {
        case .exited(125) where child.results.isEmpty && child.stderr.contains(ChildGroup.joinFailed):
            verdict.cannotJudge(.couldNotStart, ChildGroup.joinFailed + ": run it again")
        case .signaled(SIGKILL) where child.limitReached != nil:
            break
        case .signaled(let signal):
            if signal == SIGKILL {
                verdict.interference =
                    "the child was killed by a SIGKILL the harness did not send (the machine ran out of memory, or something else killed it)"
            }
            verdict.detections.append(
                Detection(
                    detector: .crash, iteration: lastIteration, seconds: child.elapsedSeconds,
                    summary: "died on \(signalName(signal))"
                        + (cause.map { ": \($0.summary)" } ?? crashLine.map { ": \($0)" } ?? "")))
        case .killedAfterCrash:
            verdict.detections.append(
                Detection(
                    detector: .crash, iteration: lastIteration, seconds: child.elapsedSeconds,
                    summary: "crashed and did not exit (killed): "
                        + (cause?.summary ?? crashLine ?? "crash marker on stderr")))
        case .killedAfterStall:
            verdict.hangPositions = child.lastProgress?.threads ?? []
            verdict.detections.append(
                Detection(
                    detector: .hang, iteration: lastIteration, seconds: child.elapsedSeconds,
                    summary: (child.stallReason.map { "\($0), killed by the watchdog; " }
                        ?? "no progress, killed by the watchdog; ")
                        + positions(verdict.hangPositions)
                        + (child.threadsAtKill.map { "; at the kill: \($0)" } ?? "")))
        case .killedBeforeStart:
            verdict.cannotJudge(
                .neverStarted,
                "the child sent no sign of life for a minute of its own time and was killed before any lab code ran"
                    + " (the machine is short of memory or disk, or the harness is broken): run it again")
        case .failedToStart(let reason):
            verdict.cannotJudge(.couldNotStart, "could not start the child process: \(reason)")
        case .exited(let status):
            if status == 2 && child.results.isEmpty {
                let line = child.stderr.split(separator: "\n").last.map(String.init) ?? ""
                verdict.cannotJudge(.rejectedArguments, "the child rejected its arguments: \(line)")
            } else if result == nil && child.results.isEmpty, let cause {
                // A deadly signal TSan caught and reported before ending the child.
                verdict.detections.append(
                    Detection(
                        detector: .crash, iteration: lastIteration, seconds: child.elapsedSeconds,
                        summary: cause.summary))
            } else if result == nil && child.results.isEmpty, let fatal = crashLine, fatal.contains("ThreadSanitizer") {
                // TSan itself ended the child (it could not allocate, it crashed): say so.
                verdict.detections.append(
                    Detection(
                        detector: .crash, iteration: lastIteration, seconds: child.elapsedSeconds,
                        summary: "ThreadSanitizer ended the child: "
                            + fatal.replacingOccurrences(of: #"^==\d+==\s*"#, with: "", options: .regularExpression)))
            } else if result == nil && child.results.isEmpty && (status == 0 || tsanExit) {
                verdict.cannotJudge(
                    .noResult,
                    child.malformedLines.isEmpty
                        ? "the child exited (status \(status)) without sending a result"
                        : "the child sent a malformed result: \(child.malformedLines[0])")
            } else if status != 0 && !tsanExit {
                verdict.detections.append(
                    Detection(
                        detector: .crash, iteration: lastIteration, seconds: child.elapsedSeconds,
                        summary: "exited with status \(status)" + (result == nil ? " before finishing" : "")
                            + (crashLine.map { ": \($0)" } ?? "")))
            }
        }
        if child.results.count > 1 {
            // Lab code wrote a result line of its own: whatever else happened, never a pass.
            verdict.markForged(
                "the result channel carried \(child.results.count) result lines; the harness sends exactly one")
        } else if child.linesAfterResult > 0 {
            // Code that ran before the scenario (at load time, say) wrote a result; the harness's
            // own never came (the child died first) or the lines after it are the run's.
            verdict.markForged(
                "a result line came before \(child.linesAfterResult) other channel line(s); the harness sends its result last"
            )
        } else if let result,
            let problem = RunStory.problem(
                with: result, plan: plan, announcedIterations: child.announcedIterations,
                announcedPoints: child.announcedPoints)
        {
            // A result the parent did not see happen: written by lab code, not the harness.
            verdict.markForged("the result line does not match the run the heartbeats showed: \(problem)")
        } else if child.channelTruncated {
            verdict.cannotJudge(
                .channelOverflow, "the result channel was longer than the output limit, so it cannot be trusted")
        } else if let result, !result.tsanEnabled, verdict.harnessError == nil {
            verdict.cannotJudge(
                .builtWithoutTSan,
                "the child ran without ThreadSanitizer, so it cannot judge races: " + HarnessProblem.tsanAdvice)
        }
        if child.stderrTruncated { verdict.notes.append("stderr was longer than the output limit and was cut") }
        if child.stdoutTruncated { verdict.notes.append("stdout was longer than the output limit and was cut") }
        if child.leftoverProcesses > 0 {
            verdict.notes.append("the child left \(child.leftoverProcesses) process(es) running; they were killed")
            verdict.interference =
                verdict.interference ?? "the child left \(child.leftoverProcesses) process(es) running"
        }
        verdict.profile = RunProfile(child)
        return verdict
    }

    /// Starts the harness error of a run whose channel carried a forged result.
    public static let forgedMarker = "forged result"

    static func positions(_ threads: [ThreadPosition]) -> String {
        guard !threads.isEmpty else { return "no checkpoint was ever reached" }
        return "last seen: "
            + threads.map { position in
                let who = position.isMainThread ? "main thread" : "thread \(position.threadID)"
                return
                    "\(who) at \(position.checkpoint) #\(position.hit) (\(String(format: "%.1f", position.secondsAgo))s before the kill)"
            }.joined(separator: "; ")
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV"
        ]
        return names[signal] ?? "signal \(signal)"
    }
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
