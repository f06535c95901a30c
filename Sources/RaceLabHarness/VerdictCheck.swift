import Foundation
import LabKit
import TSanReports

/// One concern a child run is judged on. `VerdictBuilder` asks every check in its list, in
/// order, and each adds what it found to the verdict; a new concern is one new type in the list.
protocol VerdictCheck: Sendable {
    func judge(_ run: RunEvidence, _ verdict: inout RunVerdict)
}

/// A race TSan reported (on standard error, or as the child counted), or TSan's exit status:
/// the parent's own evidence, whatever the result says.
struct ThreadSanitizerCheck: VerdictCheck {
    func judge(_ run: RunEvidence, _ verdict: inout RunVerdict) {
        let counted = run.result?.tsanReports ?? 0
        guard !run.reports.isEmpty || counted > 0 || ((run.tsanExit || run.tsanText) && !run.tsanFatal) else { return }
        let summary =
            run.reports.first.map(ReportSummary.oneLine)
            ?? (counted > 0
                ? "ThreadSanitizer reported \(counted) warning(s)"
                : "ThreadSanitizer found a problem (it ended the child with status \(TSanEnvironment.exitCode)) but its report could not be read")
        let more = run.reports.count > 1 ? " (+\(run.reports.count - 1) more)" : ""
        verdict.detections.append(
            Detection(
                detector: .tsan, iteration: run.result?.firstTSanIteration ?? run.lastIteration,
                seconds: run.result?.firstTSanIteration == nil ? nil : run.result?.firstDetectionSeconds,
                summary: summary + more))
    }
}

/// An invariant the story found broken, in the result or streamed before the child died.
struct InvariantCheck: VerdictCheck {
    func judge(_ run: RunEvidence, _ verdict: inout RunVerdict) {
        guard let failure = run.failures.first else { return }
        let more = run.failures.count > 1 ? " (+\(run.failures.count - 1) more)" : ""
        verdict.detections.append(
            Detection(
                detector: .invariant, iteration: failure.iteration,
                seconds: run.result.flatMap {
                    $0.firstFailureIteration == $0.firstTSanIteration || $0.firstTSanIteration == nil
                        ? $0.firstDetectionSeconds : nil
                },
                summary: failure.message + " (\(failure.shortLocation))" + more))
    }
}

/// The child was held to its limits (ChildLimits, a flood of output): the code's doing, whatever
/// else followed from it.
struct LimitCheck: VerdictCheck {
    func judge(_ run: RunEvidence, _ verdict: inout RunVerdict) {
        guard let limit = run.child.limitReached else { return }
        verdict.detections.append(run.detection(.crash, limit))
    }
}

/// A child that never ran lab code: it could not be started or put in its groups, or sent no
/// sign of life. Such a run cannot be judged.
struct StartCheck: VerdictCheck {
    func judge(_ run: RunEvidence, _ verdict: inout RunVerdict) {
        switch run.child.ending {
        case .exited where run.couldNotJoinGroup:
            verdict.cannotJudge(.couldNotStart, ChildGroup.joinFailed + ": run it again")
        case .killedBeforeStart:
            verdict.cannotJudge(
                .neverStarted,
                "the child sent no sign of life for a minute of its own time and was killed before any lab code ran"
                    + " (the machine is short of memory or disk, or the harness is broken): run it again")
        case .failedToStart(let reason):
            verdict.cannotJudge(.couldNotStart, "could not start the child process: \(reason)")
        default:
            break
        }
    }
}

/// A child that died on a signal crashed, unless it was the harness's kill for a limit; a
/// SIGKILL the harness did not send may have come from outside the run.
struct SignalCheck: VerdictCheck {
    func judge(_ run: RunEvidence, _ verdict: inout RunVerdict) {
        guard case .signaled(let signal) = run.child.ending, !(signal == SIGKILL && run.child.limitReached != nil)
        else { return }
        if signal == SIGKILL {
            verdict.interference =
                "the child was killed by a SIGKILL the harness did not send (the machine ran out of memory, or something else killed it)"
        }
        verdict.detections.append(
            run.detection(
                .crash,
                "died on \(Self.name(of: signal))"
                    + (run.cause.map { ": \($0.summary)" } ?? run.crashLine.map { ": \($0)" } ?? "")))
    }

    /// "SIGSEGV", or "signal 15" for one a crash seldom ends on.
    static func name(of signal: Int32) -> String {
        let names: [Int32: String] = [
            4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV"
        ]
        return names[signal] ?? "signal \(signal)"
    }
}

/// The watchdog's kills of a child that ran lab code: one that crashed and did not die, one that
/// stopped making progress (a hang, with where its threads were).
struct WatchdogKillCheck: VerdictCheck {
    func judge(_ run: RunEvidence, _ verdict: inout RunVerdict) {
        let child = run.child
        switch child.ending {
        case .killedAfterCrash:
            let shown = run.cause?.summary ?? run.crashLine ?? "crash marker on stderr"
            verdict.detections.append(run.detection(.crash, "crashed and did not exit (killed): " + shown))
        case .killedAfterStall:
            verdict.hangPositions = child.lastProgress?.threads ?? []
            verdict.detections.append(
                run.detection(
                    .hang,
                    (child.stallReason.map { "\($0), killed by the watchdog; " }
                        ?? "no progress, killed by the watchdog; ")
                        + Self.positions(verdict.hangPositions)
                        + (child.threadsAtKill.map { "; at the kill: \($0)" } ?? "")))
        default:
            break
        }
    }

    /// Where each thread was last seen before the kill, in words.
    static func positions(_ threads: [ThreadPosition]) -> String {
        guard !threads.isEmpty else { return "no checkpoint was ever reached" }
        return "last seen: "
            + threads.map { position in
                let who = position.isMainThread ? "main thread" : "thread \(position.threadID)"
                return
                    "\(who) at \(position.checkpoint) #\(position.hit) (\(String(format: "%.1f", position.secondsAgo))s before the kill)"
            }.joined(separator: "; ")
    }
}

/// A child that exited by itself: what its status says beside what it sent (arguments it
/// rejected, a crash TSan caught, no result at all, an exit status of its own).
struct ExitStatusCheck: VerdictCheck {
    func judge(_ run: RunEvidence, _ verdict: inout RunVerdict) {
        guard case .exited(let status) = run.child.ending, !run.couldNotJoinGroup else { return }
        let child = run.child
        let sentNothing = run.result == nil && child.results.isEmpty
        if status == 2 && child.results.isEmpty {
            let line = child.stderr.split(separator: "\n").last.map(String.init) ?? ""
            verdict.cannotJudge(.rejectedArguments, "the child rejected its arguments: \(line)")
        } else if sentNothing || run.tsanFatal, let cause = run.cause {
            // A deadly signal TSan caught and reported before ending the child (also after the
            // child sent its result: TSan's exit status is then no race, but this crash).
            verdict.detections.append(run.detection(.crash, cause.summary))
        } else if sentNothing, let fatal = run.crashLine, fatal.contains("ThreadSanitizer") {
            // TSan itself ended the child (it could not allocate, it crashed): say so.
            verdict.detections.append(
                run.detection(
                    .crash,
                    "ThreadSanitizer ended the child: "
                        + fatal.replacingOccurrences(of: #"^==\d+==\s*"#, with: "", options: .regularExpression)))
        } else if sentNothing && (status == 0 || run.tsanExit) {
            verdict.cannotJudge(
                .noResult,
                child.malformedLines.isEmpty
                    ? "the child exited (status \(status)) without sending a result"
                    : "the child sent a malformed result: \(child.malformedLines[0])")
        } else if status != 0 && !run.tsanExit {
            verdict.detections.append(
                run.detection(
                    .crash,
                    "exited with status \(status)" + (run.result == nil ? " before finishing" : "")
                        + (run.crashLine.map { ": \($0)" } ?? "")))
        }
    }
}

/// Whether the result line can be believed: one line, the harness's, last on the channel, that
/// matches the run the heartbeats showed, on a channel read whole, from a child built with TSan.
/// Its word comes after the others': a forged result is a forgery whatever else happened.
struct ResultTrustCheck: VerdictCheck {
    func judge(_ run: RunEvidence, _ verdict: inout RunVerdict) {
        let child = run.child
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
        } else if let result = run.result,
            let problem = RunStory.problem(
                with: result, plan: run.plan, announcedIterations: child.announcedIterations,
                announcedPoints: child.announcedPoints)
        {
            // A result the parent did not see happen: written by lab code, not the harness.
            verdict.markForged("the result line does not match the run the heartbeats showed: \(problem)")
        } else if child.channelTruncated {
            verdict.cannotJudge(
                .channelOverflow, "the result channel was longer than the output limit, so it cannot be trusted")
        } else if let result = run.result, !result.tsanEnabled, verdict.harnessError == nil {
            verdict.cannotJudge(
                .builtWithoutTSan,
                "the child ran without ThreadSanitizer, so it cannot judge races: " + HarnessProblem.tsanAdvice)
        }
    }
}

/// Output cut at its limit, said in the notes.
struct OutputCutCheck: VerdictCheck {
    func judge(_ run: RunEvidence, _ verdict: inout RunVerdict) {
        if run.child.stderrTruncated { verdict.notes.append("stderr was longer than the output limit and was cut") }
        if run.child.stdoutTruncated { verdict.notes.append("stdout was longer than the output limit and was cut") }
    }
}

/// Processes the child left running (all killed): noted, and something outside the code under
/// test may have shaped the run.
struct LeftoverProcessCheck: VerdictCheck {
    func judge(_ run: RunEvidence, _ verdict: inout RunVerdict) {
        let count = run.child.leftoverProcesses
        guard count > 0 else { return }
        verdict.notes.append("the child left \(count) process(es) running; they were killed")
        verdict.interference = verdict.interference ?? "the child left \(count) process(es) running"
    }
}
