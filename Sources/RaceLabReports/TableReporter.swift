import CompilerCheck
import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// The human-readable outcome table: one row per lab variant and mode, a column per detector
/// counting the runs it fired in (like jcstress's outcome table), then the details that matter.
public struct TableReporter {
    public var colour: Bool

    public init(colour: Bool) { self.colour = colour }

    /// `compiler`: what Swift 6 language mode says of each lab's code; given, the table gets a
    /// COMPILER column and a note per lab part under it.
    public func render(_ outcomes: [VariantOutcome], compiler: [CompilerFinding]? = nil) -> String {
        var header = ["LAB", "VARIANT", "MODE", "VERDICT", "TSAN", "INVARIANT", "CRASH", "HANG", "EXPECTED", "OK"]
        if compiler != nil { header.insert("COMPILER", at: 8) }
        var rows: [[String]] = []
        for outcome in outcomes {
            let total = outcome.runs.count
            let verdict: String
            if outcome.harnessErrors > 0 {
                verdict = "ERROR \(outcome.harnessErrors)/\(total)"
            } else if outcome.detectedRuns > 0 {
                verdict = "DETECTED \(outcome.detectedRuns)/\(total)"
            } else {
                verdict = "CLEAN \(outcome.cleanRuns)/\(total)"
            }
            var row = [
                outcome.lab, outcome.variant, outcome.mode.rawValue, verdict,
                "\(outcome.count(.tsan))/\(total)", "\(outcome.count(.invariant))/\(total)",
                "\(outcome.count(.crash))/\(total)", "\(outcome.count(.hang))/\(total)",
                outcome.expectation.rawValue, outcome.met ? "yes" : "NO"
            ]
            if let compiler {
                row.insert(compiler.finding(lab: outcome.lab, part: outcome.labPart)?.cell ?? "-", at: 8)
            }
            rows.append(row)
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String], met: Bool? = nil) -> String {
            let text = cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
            guard colour, let met else { return text }
            return (met ? "\u{1B}[32m" : "\u{1B}[31m") + text + "\u{1B}[0m"
        }
        var out = [line(header)]
        for (row, outcome) in zip(rows, outcomes) { out.append(line(row, met: outcome.met)) }
        out.append("")
        if let compiler {
            let notes = compilerNotes(outcomes, compiler)
            if !notes.isEmpty { out += notes + [""] }
        }
        out += details(outcomes)
        return out.joined(separator: "\n")
    }

    /// Under the table, for each lab part in it (broken, exercise, fixed): what Swift 6 mode
    /// said, with the first diagnostic and its line, or why it is not measured.
    func compilerNotes(_ outcomes: [VariantOutcome], _ compiler: [CompilerFinding]) -> [String] {
        let shown = compiler.inOrder(of: outcomes)
        guard !shown.isEmpty else { return [] }
        let versions = Set(shown.compactMap { $0.result?.compilerName }).sorted()
        let measured = versions.isEmpty ? "" : ", \(versions.joined(separator: "; "))"
        var lines = ["COMPILER: the same code in Swift 6 language mode (\(CompilerFinding.command)\(measured)):"]
        let labWidth = shown.map(\.lab.count).max() ?? 0
        for finding in shown {
            lines.append(
                "  " + finding.lab.padding(toLength: labWidth, withPad: " ", startingAt: 0) + "  "
                    + finding.part.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) + "  " + finding.detail)
            if let note = finding.result?.scenarioNote {
                lines.append(String(repeating: " ", count: labWidth + 14) + note)
            }
        }
        return lines
    }

    /// For each row: what caught the bug (first run), and every run that went against the
    /// expectation with its seed and the command that replays it.
    func details(_ outcomes: [VariantOutcome]) -> [String] {
        var lines: [String] = []
        for outcome in outcomes {
            let title = "\(outcome.lab) \(outcome.variant) (\(outcome.mode.rawValue))"
            if outcome.met, let first = outcome.runs.first {
                if first.detected {
                    lines.append("\(title): caught, as it should be. First run (seed \(first.seed)):")
                    lines += describe(first).map { "  " + $0 }
                }
                continue
            }
            let offending = outcome.offendingRuns
            guard let first = offending.first else { continue }
            let what =
                first.harnessError != nil
                ? "could not be judged"
                : outcome.expectation == .detected ? "was NOT caught" : "is NOT clean"
            lines.append("FAIL \(title) \(what): lab \(outcome.lab), variant \(outcome.variant), seed \(first.seed).")
            lines += describe(first).map { "  " + $0 }
            lines.append("  reproduce: \(first.reproduce)")
            // The other runs that failed, one line each: usually the same story with another seed.
            for run in offending.dropFirst() {
                let headline =
                    run.harnessError ?? run.detections.first.map { "\($0.detector.rawValue): \($0.summary)" } ?? "clean"
                lines.append("  also seed \(run.seed) (same command with --seed \(run.seed)): \(headline)")
            }
        }
        return lines
    }

    func describe(_ run: RunVerdict) -> [String] {
        var lines: [String] = []
        if let error = run.harnessError { lines.append("harness error: \(error)") }
        for detection in run.detections {
            var when: [String] = []
            if let iteration = detection.iteration { when.append("iteration \(iteration)") }
            if let seconds = detection.seconds { when.append(String(format: "%.2fs", seconds)) }
            lines.append(
                "\(detection.detector.rawValue): \(detection.summary)"
                    + (when.isEmpty ? "" : " [\(when.joined(separator: ", "))]"))
        }
        if !run.detected && run.harnessError == nil {
            lines.append("clean: \(run.iterationsRun) iteration(s), no detector fired")
        }
        if !run.metrics.isEmpty {
            let values = run.metrics.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%g", $0.value))" }
            lines.append("measured: " + values.joined(separator: ", "))
        }
        for note in run.notes { lines.append("note: \(note)") }
        return lines
    }
}
