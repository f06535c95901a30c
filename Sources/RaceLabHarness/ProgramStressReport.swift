import Foundation
import TSanReports

/// What `racelab stress` prints after its runs: the first finding explained, the tally, the
/// replay command, and whether RaceLab's preemption could act at all.
public struct ProgramStressReport: Sendable {
    public var stress: ProgramStress
    public var result: ProgramStress.Result
    public var programName: String

    public init(stress: ProgramStress, result: ProgramStress.Result, programName: String = "racelab") {
        self.stress = stress
        self.result = result
        self.programName = programName
    }

    /// The lines about the first run that found something: what, and the evidence.
    public var findingText: String? {
        guard let run = result.firstFinding, let finding = result.finding(of: run) else { return nil }
        var lines = ["run \(run.index)\(run.seed.map { " (seed \($0))" } ?? ""): \(finding)"]
        let output = result.firstFindingOutput ?? ""
        if case .report = finding {
            let explanation = TSanExplainer.explain(output, sourceLine: SourceLineReader.lookup())
            lines += ["", explanation.text.trimmingCharacters(in: .newlines)]
        } else {
            let tail = output.split(separator: "\n", omittingEmptySubsequences: false).suffix(15)
            if !tail.joined().trimmingCharacters(in: .whitespaces).isEmpty {
                lines += ["", "The run's last lines of output:"] + tail.map { "  " + $0 }
            }
        }
        lines += ["", "Replay: \(stress.replay(of: run, programName: programName))"]
        if run.seed != nil {
            lines.append(
                "(The seed repeats RaceLab's choices (its pauses or its priorities), not the system's own scheduling: a replay shows the same problem often, not always.)"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// The tally: runs, findings by kind, and a warning when the preemption had nowhere to act.
    public var summaryText: String {
        let runs = result.runs
        var lines: [String] = []
        let findings = result.findings
        let how = stress.preempts ? "with RaceLab's preemption" : "plain"
        if findings == 0 {
            lines.append("No problem found in \(runs.count) run(s), \(how) (\(Self.seconds(result.seconds)) s).")
        } else {
            var byKind: [String: Int] = [:]
            for run in runs { if let finding = result.finding(of: run) { byKind[finding.category, default: 0] += 1 } }
            let kinds = byKind.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            let stopped =
                stress.keepsGoing || runs.count == stress.runs
                ? "" : "; stopped at the first (--keep-going counts them all)"
            lines.append(
                "\(findings) of \(runs.count) run(s) found a problem, \(how): \(kinds)\(stopped) (\(Self.seconds(result.seconds)) s)."
            )
        }
        if let warning = preemptionWarning { lines.append(warning) }
        return lines.joined(separator: "\n")
    }

    /// Said when the preemption was asked for but did not act: the library did not load into
    /// any run, or the program made no call it acts at (in every run that ended normally).
    public var preemptionWarning: String? {
        guard stress.preempts, !result.runs.isEmpty else { return nil }
        if !result.runs.contains(where: \.preemptionLoaded) {
            return
                "Warning: RaceLab's preemption did not load into this program (a statically linked program, or one that clears LD_PRELOAD): these were plain runs."
        }
        let counted = result.runs.compactMap(\.points)
        if !counted.isEmpty, counted.allSatisfy({ $0 == 0 }) {
            return
                "Warning: the program made no call RaceLab pauses at (mutexes, read-write locks, POSIX semaphores, thread start and join, queue submissions), so nothing was preempted: these were plain runs."
        }
        return nil
    }

    static func seconds(_ value: Double) -> String { String(format: "%.1f", value) }
}
