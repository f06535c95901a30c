import CompilerCheck
import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// One self-contained HTML page (inline CSS and SVG, no external assets, works offline): the
/// outcome table, and for each caught or failing row the detections, the TSan reports, the
/// invariant failures, the interleaving as an SVG swimlane, the seed, the command to
/// reproduce, and a link to the lab's lesson.
public enum HTMLReporter {
    public static func render(_ report: RunReport, sourceLine: @escaping TSanExplainer.SourceLookup = { _, _ in nil })
        -> String
    {
        var body: [String] = []
        body.append("<h1>RaceLab report</h1>")
        body.append(
            "<p class=meta>\(escape(report.command))<br>base seed \(report.seed), \(report.runsPerVariant) run(s) per variant and mode, \(String(format: "%.1f", report.elapsedSeconds)) s. "
        )
        body.append(
            report.allExpectationsMet
                ? "<b class=ok>All expectations met.</b></p>" : "<b class=bad>Some expectations NOT met.</b></p>")
        body.append(table(report.outcomes, compiler: report.compiler))
        if let compiler = report.compiler { body.append(compilerSection(report.outcomes, compiler)) }
        for outcome in report.outcomes {
            guard let run = outcome.offendingRuns.first ?? outcome.runs.first(where: \.detected) else { continue }
            body.append(section(outcome, run: run, lesson: report.lessons[outcome.lab], sourceLine: sourceLine))
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>RaceLab report</title>
            <style>\(style)</style></head>
            <body>
            \(body.joined(separator: "\n"))
            </body></html>
            """
    }

    static let style = """
        body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;color:#222;padding:0 1em}
        h1{font-size:1.6em}h2{font-size:1.2em;margin-top:2em;border-top:1px solid #ccc;padding-top:1em}
        table.outcomes{border-collapse:collapse}table.outcomes td,table.outcomes th{padding:.25em .7em;border-bottom:1px solid #ddd;text-align:left}
        tr.met td:last-child,.ok{color:#17692d}tr.unmet td,.bad{color:#a11}
        code,pre{font:13px/1.35 ui-monospace,monospace;background:#f4f4f4}pre{padding:.6em;overflow-x:auto}
        pre.explain{background:#fffbe6;border-left:3px solid #e0b400}
        .meta{color:#555}.detector{font-weight:bold;text-transform:uppercase;font-size:.8em;margin-right:.5em}
        table.accesses td{padding:.1em .6em;font-size:.92em}svg{border:1px solid #ddd;background:#fff}
        """

    static func table(_ outcomes: [VariantOutcome], compiler: [CompilerFinding]? = nil) -> String {
        var rows = [
            "<table class=outcomes><tr><th>Lab</th><th>Variant</th><th>Mode</th><th>Verdict</th>"
                + Detector.allCases.map { "<th>\($0.rawValue)</th>" }.joined()
                + (compiler == nil ? "" : "<th>compiler</th>")
                + "<th>Expected</th><th>OK</th></tr>"
        ]
        for outcome in outcomes {
            let total = outcome.runs.count
            let verdict =
                outcome.harnessErrors > 0
                ? "ERROR \(outcome.harnessErrors)/\(total)"
                : outcome.detectedRuns > 0
                    ? "DETECTED \(outcome.detectedRuns)/\(total)" : "CLEAN \(outcome.cleanRuns)/\(total)"
            rows.append(
                "<tr class=\(outcome.met ? "met" : "unmet")><td>\(escape(outcome.lab))</td><td>\(escape(outcome.variant))</td>"
                    + "<td>\(outcome.mode.rawValue)</td><td>\(verdict)</td>"
                    + Detector.allCases.map { "<td>\(outcome.count($0))/\(total)</td>" }.joined()
                    + (compiler.map { compilerCell($0.finding(lab: outcome.lab, part: outcome.labPart)) } ?? "")
                    + "<td>\(outcome.expectation.rawValue)</td><td>\(outcome.met ? "yes" : "NO")</td></tr>")
        }
        rows.append("</table>")
        return rows.joined(separator: "\n")
    }

    /// The compiler cell: the verdict, with the first diagnostic as its tooltip.
    static func compilerCell(_ finding: CompilerFinding?) -> String {
        guard let finding else { return "<td>-</td>" }
        return "<td title=\"\(escape(finding.detail))\">\(escape(finding.cell))</td>"
    }

    /// "What the Swift 6 compiler says": each lab part in the table, its verdict and first
    /// diagnostic (which bugs Swift 6 stops before they run, which still need a run to be seen).
    static func compilerSection(_ outcomes: [VariantOutcome], _ compiler: [CompilerFinding]) -> String {
        let shown = compiler.inOrder(of: outcomes)
        guard !shown.isEmpty else { return "" }
        let versions = Set(shown.compactMap { $0.result?.compilerName }).sorted()
        var html = [
            "<h2>What the Swift 6 compiler says</h2>",
            "<p class=meta>The same code compiled in Swift 6 language mode by <code>\(CompilerFinding.command)</code>"
                + (versions.isEmpty ? "" : " (\(escape(versions.joined(separator: "; "))))")
                + ". Rejected: Swift 6 stops it before it runs. Accepted: only a run (TSan, an invariant) can catch what is wrong.</p>",
            "<table class=outcomes><tr><th>Lab</th><th>Code</th><th>Swift 6</th><th>First diagnostic</th></tr>"
        ]
        for finding in shown {
            let diagnostic: String
            if let result = finding.result {
                diagnostic =
                    (result.first.map {
                        "<code>\(escape($0.shortLocation))</code> \(escape($0.message))"
                            + (result.errors > 1 ? " (and \(result.errors - 1) more)" : "")
                    } ?? "")
                    + (result.scenarioSharingError.map {
                        "<br><span class=meta>its scenario: <code>\(escape($0.shortLocation))</code> \(escape($0.message))</span>"
                    } ?? "")
            } else {
                diagnostic = escape(finding.detail)
            }
            html.append(
                "<tr><td>\(escape(finding.lab))</td><td>\(finding.part.rawValue)</td><td>\(escape(finding.cell))</td><td>\(diagnostic)</td></tr>"
            )
        }
        html.append("</table>")
        return html.joined(separator: "\n")
    }

    static func section(
        _ outcome: VariantOutcome, run: RunVerdict, lesson: String?,
        sourceLine: @escaping TSanExplainer.SourceLookup
    ) -> String {
        let caught =
            outcome.met ? "caught, as it should be" : outcome.expectation == .detected ? "NOT caught" : "NOT clean"
        var html = [
            "<h2>\(escape(outcome.lab)) · \(escape(outcome.variant)) · \(outcome.mode.rawValue): \(caught)</h2>"
        ]
        html.append(
            "<p>Seed \(run.seed). Reproduce: <code>\(escape(run.reproduce))</code>"
                + (lesson.map { " · <a href=\"\(escape(URL(fileURLWithPath: $0).absoluteString))\">the lesson</a>" }
                    ?? "") + "</p>")
        if let error = run.harnessError { html.append("<p class=bad>Harness error: \(escape(error))</p>") }
        html.append(
            "<ul>"
                + run.detections.map { detection in
                    "<li><span class=detector>\(detection.detector.rawValue)</span>\(escape(detection.summary))"
                        + (detection.iteration.map { " (iteration \($0))" } ?? "") + "</li>"
                }.joined() + "</ul>")
        if !run.failures.isEmpty {
            html.append(
                "<h3>Invariant failures</h3><ul>"
                    + run.failures.prefix(10).map {
                        "<li>\(escape($0.message)) <code>\(escape($0.shortLocation))</code> (iteration \($0.iteration))</li>"
                    }.joined() + "</ul>")
        }
        if let trace = run.trace {
            html.append("<h3>The interleaving (iteration \(trace.iteration))</h3>")
            html.append(svg(trace, run: run))
        }
        for report in run.reports.prefix(5) {
            html.append("<h3>TSan: \(escape(report.title))</h3>")
            html.append(accesses(report))
            if let explained = TSanExplainer.explain(report.text, width: 100, sourceLine: sourceLine).reports.first {
                html.append("<pre class=explain>\(escape(explained.explanation))</pre>")
            }
            html.append(
                "<details><summary>The report as TSan printed it</summary><pre>\(escape(report.text))</pre></details>")
        }
        return html.joined(separator: "\n")
    }

    static func accesses(_ report: TSanReport) -> String {
        var rows = report.accesses.map { access -> String in
            let frame = access.frames.first { $0.file != nil } ?? access.frames.first
            return
                "<tr><td>\(escape(access.thread ?? "?"))</td><td>\(access.description.hasPrefix("Mutex") ? "lock" : access.isWrite ? "write" : "read")</td>"
                + "<td>\(escape(frame?.demangled ?? "?"))</td><td><code>\(escape(frame?.shortLocation ?? ""))</code></td></tr>"
        }
        if let location = report.location { rows.append("<tr><td colspan=4>Memory: \(escape(location))</td></tr>") }
        for thread in report.threads { rows.append("<tr><td colspan=4>\(escape(thread.description))</td></tr>") }
        return "<table class=accesses>" + rows.joined() + "</table>"
    }

    /// The swimlane as SVG: a column per thread, a row per event, in time order.
    static func svg(_ trace: Trace, run: RunVerdict) -> String {
        let layout = SwimlaneRenderer.layout(trace, reports: run.reports, maxRows: 80)
        let laneWidth = 230
        let rowHeight = 22
        let left = 80
        let top = 34
        let width = left + laneWidth * max(layout.lanes.count, 1) + 10
        let height = top + rowHeight * (layout.events.count + 1)
        var parts = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" font-family=\"ui-monospace,monospace\" font-size=\"12\">"
        ]
        for (index, lane) in layout.lanes.enumerated() {
            let x = left + index * laneWidth
            parts.append("<line x1=\"\(x + 8)\" y1=\"\(top - 6)\" x2=\"\(x + 8)\" y2=\"\(height)\" stroke=\"#ccc\"/>")
            parts.append("<text x=\"\(x)\" y=\"18\" font-weight=\"bold\">\(escape(lane.name))</text>")
        }
        parts.append("<text x=\"4\" y=\"18\" fill=\"#777\">ms</text>")
        for (row, event) in layout.events.enumerated() {
            let y = top + row * rowHeight + 10
            let x = left + layout.column(of: event) * laneWidth
            let (colour, label) = look(event)
            parts.append(
                "<text x=\"4\" y=\"\(y + 4)\" fill=\"#777\">\(String(format: "%.2f", event.milliseconds))</text>")
            parts.append("<circle cx=\"\(x + 8)\" cy=\"\(y)\" r=\"5\" fill=\"\(colour)\"/>")
            parts.append("<text x=\"\(x + 18)\" y=\"\(y + 4)\" fill=\"\(colour)\">\(escape(label))</text>")
        }
        parts.append("</svg>")
        var notes: [String] = []
        if layout.skipped > 0 { notes.append("\(layout.skipped) earlier events are not shown.") }
        if let crash = run.detections.first(where: { $0.detector == .crash }) {
            notes.append("Then the process crashed: \(crash.summary)")
        }
        let key =
            "<p class=meta>Blue: the user acts (main thread). Grey: a checkpoint in the slow work. Orange: a thread held by the scenario. Red: TSan reported a race on this thread (its access is the later of the two), or a rule or invariant broke.</p>"
        return parts.joined(separator: "\n") + key + notes.map { "<p>\(escape($0))</p>" }.joined()
    }

    static func look(_ event: TraceEvent) -> (String, String) {
        switch event.kind {
        case .checkpoint: return ("#666", "\(event.text) #\(event.hit)")
        case .action: return ("#1f5fbf", "user: \(event.text)")
        case .pause: return ("#c76b00", event.text == "held here" ? "held at a checkpoint" : "goes on")
        case .report: return ("#c00", "TSan: race here")
        case .failure: return ("#c00", event.text)
        case .job: return ("#2a7f3f", "runs \(event.text)")
        }
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
