import Foundation

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
    /// The run could not be judged (child did not start, sent no result, rejected its arguments).
    public var harnessError: String?
    public var notes: [String]
    public var metrics: [String: Double]
    public var elapsedSeconds: Double
    /// The command that replays this run.
    public var reproduce: String
    /// The interleaving of the last iteration run (with `--trace`).
    public var trace: Trace?

    public var detected: Bool { !detections.isEmpty }
    public func fired(_ detector: Detector) -> Bool { detections.contains { $0.detector == detector } }
}

/// Judges one child's outcome.
public enum VerdictBuilder {
    public static func verdict(plan: ScenarioPlan, kind: VariantKind, child: ChildOutcome, reproduce: String) -> RunVerdict {
        let result = child.result
        let reports = TSanReportParser.parseUnique(child.stderr)
        // A child that hung or crashed sent no result, but the failures it found before that.
        let failures = result?.failures ?? child.streamedFailures
        var verdict = RunVerdict(
            lab: plan.lab, variant: plan.variant, kind: kind, mode: plan.mode, seed: plan.seed,
            iterationsRequested: plan.iterations, iterationsRun: result?.iterationsRun ?? child.lastProgress?.iteration ?? 0,
            detections: [], reports: reports, failures: Array(failures.prefix(20)),
            hangPositions: [], harnessError: nil, notes: result?.notes ?? [], metrics: result?.metrics ?? [:],
            elapsedSeconds: child.elapsedSeconds, reproduce: reproduce, trace: nil)
        let lastIteration = child.lastProgress?.iteration

        if !reports.isEmpty || (result?.tsanReports ?? 0) > 0 {
            let summary = reports.first.map(ReportSummary.oneLine) ?? "ThreadSanitizer reported \(result?.tsanReports ?? 0) warning(s)"
            let more = reports.count > 1 ? " (+\(reports.count - 1) more)" : ""
            verdict.detections.append(Detection(
                detector: .tsan, iteration: result?.firstTSanIteration ?? lastIteration,
                seconds: result?.firstTSanIteration == nil ? nil : result?.firstDetectionSeconds, summary: summary + more))
        }
        if let failure = failures.first {
            let more = failures.count > 1 ? " (+\(failures.count - 1) more)" : ""
            verdict.detections.append(Detection(
                detector: .invariant, iteration: failure.iteration,
                seconds: result.flatMap { $0.firstFailureIteration == $0.firstTSanIteration || $0.firstTSanIteration == nil
                    ? $0.firstDetectionSeconds : nil },
                summary: failure.message + " (\(failure.shortLocation))" + more))
        }
        let crashLine = TSanReportParser.crashLine(in: child.stderr)
        switch child.ending {
        case .signaled(let signal):
            verdict.detections.append(Detection(
                detector: .crash, iteration: lastIteration, seconds: child.elapsedSeconds,
                summary: "died on \(signalName(signal))" + (crashLine.map { ": \($0)" } ?? "")))
        case .killedAfterCrash:
            verdict.detections.append(Detection(
                detector: .crash, iteration: lastIteration, seconds: child.elapsedSeconds,
                summary: "crashed and did not exit (killed): " + (crashLine ?? "crash marker on stderr")))
        case .killedAfterStall:
            verdict.hangPositions = child.lastProgress?.threads ?? []
            verdict.detections.append(Detection(
                detector: .hang, iteration: lastIteration, seconds: child.elapsedSeconds,
                summary: "no progress, killed by the watchdog; " + positions(verdict.hangPositions)))
        case .failedToStart(let reason):
            verdict.harnessError = "could not start the child process: \(reason)"
        case .exited(let status):
            if status == 2 {
                let line = child.stderr.split(separator: "\n").last.map(String.init) ?? ""
                verdict.harnessError = "the child rejected its arguments: \(line)"
            } else if result == nil && (status == 0 || status == 66) {
                verdict.harnessError = child.malformedLines.isEmpty
                    ? "the child exited (status \(status)) without sending a result"
                    : "the child sent a malformed result: \(child.malformedLines[0])"
            } else if result == nil {
                verdict.detections.append(Detection(
                    detector: .crash, iteration: lastIteration, seconds: child.elapsedSeconds,
                    summary: "exited with status \(status) before finishing" + (crashLine.map { ": \($0)" } ?? "")))
            }
        }
        if let forged = child.forgedResultLines.first {
            // Lab code printed a result line of its own: whatever else happened, never a pass.
            verdict.harnessError = "a result line without the harness's authentication code was printed (forged?): \(forged.prefix(80))"
        }
        if let result, !result.tsanEnabled, verdict.harnessError == nil {
            verdict.harnessError = "the child ran without ThreadSanitizer; build with `make run` (swift build --sanitize=thread)"
        }
        if child.stderrTruncated { verdict.notes.append("stderr was longer than the output limit and was cut") }
        if child.stdoutTruncated { verdict.notes.append("stdout was longer than the output limit and was cut") }
        return verdict
    }

    static func positions(_ threads: [ThreadPosition]) -> String {
        guard !threads.isEmpty else { return "no checkpoint was ever reached" }
        return "last seen: " + threads.map { position in
            let who = position.isMainThread ? "main thread" : "thread \(position.threadID)"
            return "\(who) at \(position.checkpoint) #\(position.hit) (\(String(format: "%.1f", position.secondsAgo))s before the kill)"
        }.joined(separator: "; ")
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV"]
        return names[signal] ?? "signal \(signal)"
    }
}

/// Short, readable descriptions of TSan reports for tables and messages.
public enum ReportSummary {
    /// The first frame in the program itself: not TSan's interceptors, not a frame without a file.
    static func ownFrame(_ frames: [TSanReport.Frame]) -> TSanReport.Frame? {
        frames.first { frame in
            guard let file = frame.file else { return false }
            return !file.contains("compiler-rt/") && !file.hasPrefix("/<")
        }
    }

    /// "Swift access race: main thread write in ListAdderBroken.removeAll(keepingFirst:) (Broken.swift)
    /// vs thread T7 read in closure #1 in ListAdderBroken.recalculate() (Broken.swift:37)".
    public static func oneLine(_ report: TSanReport) -> String {
        let kind = report.kind == .other ? report.title : report.kind.rawValue
        if report.kind == .lockOrderInversion {
            // The acquisitions that close the cycle, each where the program (not TSan) took it.
            let takes = report.accesses.filter { $0.description.contains("acquired here while holding") }.map { access in
                "\(access.thread ?? "a thread") \(access.description.replacingOccurrences(of: #" acquired here while holding mutex (\w+).*"#, with: " while holding $1", options: .regularExpression).replacingOccurrences(of: "Mutex ", with: "takes "))"
                    + (ownFrame(access.frames).map { " in \($0.demangled)" + ($0.shortLocation.map { " (\($0))" } ?? "") } ?? "")
            }
            return "\(kind) \(report.lockCycle.map { "(\($0.replacingOccurrences(of: #" \(0x[0-9a-f]+\)"#, with: "", options: .regularExpression)))" } ?? ""): "
                + takes.joined(separator: "; ")
        }
        let parts = report.accesses.prefix(2).map { access -> String in
            let action = access.description.hasPrefix("Mutex") ? "lock" : (access.isWrite ? "write" : "read")
            let frame = ownFrame(access.frames) ?? access.frames.first
            let place = frame.map { " in \($0.demangled)" + ($0.shortLocation.map { " (\($0))" } ?? "") } ?? ""
            return "\(access.thread ?? "a thread") \(action)\(place)"
        }
        if parts.isEmpty, let thread = report.threads.first { return "\(kind): \(thread.description)" }
        return parts.isEmpty ? kind : "\(kind): " + parts.joined(separator: " vs ")
    }
}
