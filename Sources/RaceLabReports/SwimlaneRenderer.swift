import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// The interleaving of one run as swimlanes: one column per thread, rows in time order, so the
/// bad interleaving can be read off the screen. Fits 80 columns.
public enum SwimlaneRenderer {
    static let width = 80
    static let timeColumn = 9
    static let maxLanes = 4
    static let maxRows = 48

    /// For each row of the table: the first run that was detected or went against the expectation.
    public static func render(_ outcomes: [VariantOutcome]) -> String {
        var blocks: [String] = []
        for outcome in outcomes {
            guard let run = outcome.offendingRuns.first ?? outcome.runs.first(where: \.detected), let trace = run.trace
            else { continue }
            blocks.append(
                "Interleaving of \(outcome.lab) \(outcome.variant) (\(outcome.mode.rawValue), seed \(run.seed), iteration \(trace.iteration)):"
            )
            blocks.append(render(trace, run: run))
        }
        return blocks.joined(separator: "\n")
    }

    /// What both the text and the SVG timeline show: lanes in order and the rows to draw.
    struct Layout {
        var lanes: [(id: Int64, name: String)]
        var events: [TraceEvent]
        /// Events before the window that is shown.
        var skipped: Int
        /// Threads left out (more than `maxLanes`).
        var hiddenLanes: Int

        func column(of event: TraceEvent) -> Int { lanes.firstIndex { $0.id == event.threadID }! }
    }

    static func layout(_ trace: Trace, reports: [TSanReport], maxRows: Int = maxRows) -> Layout {
        let names = laneNames(trace, reports: reports)
        let firstSeen = Dictionary(
            trace.events.enumerated().map { ($0.element.threadID, $0.offset) }, uniquingKeysWith: min)
        var lanes = names.keys.sorted { a, b in
            if names[a] == "main" { return names[b] != "main" }
            if names[b] == "main" { return false }
            return firstSeen[a, default: .max] < firstSeen[b, default: .max]
        }
        var hidden = 0
        if lanes.count > maxLanes {
            hidden = lanes.count - maxLanes
            lanes = Array(lanes.prefix(maxLanes))
        }
        var events = trace.events.filter { lanes.contains($0.threadID) }.sorted { $0.milliseconds < $1.milliseconds }
        var skipped = 0
        if events.count > maxRows {
            // Keep the story around the first thing that went wrong.
            let focus = events.firstIndex { $0.kind == .report || $0.kind == .failure } ?? events.count - 1
            let start = max(0, min(focus - maxRows * 2 / 3, events.count - maxRows))
            skipped = start
            events = Array(events[start..<min(events.count, start + maxRows)])
        }
        return Layout(
            lanes: lanes.map { ($0, names[$0] ?? "?") }, events: events, skipped: skipped, hiddenLanes: hidden)
    }

    public static func render(_ trace: Trace, run: RunVerdict) -> String {
        let layout = layout(trace, reports: run.reports)
        let laneWidth = max(12, (width - timeColumn) / max(layout.lanes.count, 1))
        var lines: [String] = []
        lines.append(pad("    ms", timeColumn) + layout.lanes.map { pad($0.name, laneWidth) }.joined())
        lines.append(String(repeating: "-", count: min(width, timeColumn + laneWidth * layout.lanes.count)))
        if layout.skipped > 0 { lines.append("   ... \(layout.skipped) earlier events not shown") }
        for event in layout.events {
            let column = layout.column(of: event)
            let time = pad(String(format: "%8.2f", event.milliseconds), timeColumn)
            // One event per row, so its text may run on into the empty lanes to its right.
            let room = width - timeColumn - column * laneWidth
            let cell = String(label(event).prefix(room))
            lines.append(time + String(repeating: " ", count: column * laneWidth) + cell)
        }
        if layout.hiddenLanes > 0 { lines.append("   (\(layout.hiddenLanes) more thread(s) not shown)") }
        if trace.overflowed { lines.append("   (the trace filled up; later events are missing)") }
        if let crash = run.detections.first(where: { $0.detector == .crash }) {
            lines.append(wrap("   !! then the process crashed: \(crash.summary)"))
        }
        if let hang = run.detections.first(where: { $0.detector == .hang }) {
            lines.append(wrap("   !! then nothing moved: \(hang.summary)"))
        }
        lines.append("")
        lines.append("Key: >> the user acts   || held by the scenario   XX a rule or invariant broken")
        lines.append("     !! TSan reports a race on this thread (its access is the later of the two)")
        for report in run.reports.prefix(3) {
            lines.append(wrap("race: " + ReportSummary.oneLine(report)))
        }
        return lines.joined(separator: "\n")
    }

    /// "main", and TSan's own names (T2...) where a report names the thread's tid.
    static func laneNames(_ trace: Trace, reports: [TSanReport]) -> [Int64: String] {
        var tsanNames: [Int64: String] = [:]
        for report in reports {
            for thread in report.threads {
                if let match = thread.description.firstMatch(of: /Thread (T\d+).*tid=(\d+)/), let tid = Int64(match.2) {
                    tsanNames[tid] = String(match.1)
                }
            }
        }
        var names: [Int64: String] = [:]
        var workers = 0
        for event in trace.events where names[event.threadID] == nil {
            if event.isMainThread {
                names[event.threadID] = "main"
            } else {
                workers += 1
                names[event.threadID] = tsanNames[event.threadID].map { "thread \($0)" } ?? "thread #\(workers)"
            }
        }
        return names
    }

    static func label(_ event: TraceEvent) -> String {
        switch event.kind {
        case .checkpoint: return "\(event.text) #\(event.hit)"
        case .action: return ">> \(event.text)"
        case .pause: return event.text == "held here" ? "|| held" : "|| goes on"
        case .report: return "!! race"
        case .failure: return "XX \(event.text)"
        case .job: return "-> \(event.text)"
        }
    }

    static func pad(_ text: String, _ count: Int) -> String {
        text.count >= count ? String(text.prefix(count)) : text + String(repeating: " ", count: count - text.count)
    }

    static func wrap(_ text: String) -> String {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.count + word.count + 1 > width - 2, !current.isEmpty {
                lines.append(current)
                current = "   "
            }
            current += (current.isEmpty || current == "   " ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines.joined(separator: "\n")
    }
}
