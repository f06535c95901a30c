import Foundation

/// Whether an explanation says everything a ThreadSanitizer log holds, checked against the log's
/// own text, not against the explainer's reading of it: every report counted, each under the
/// title TSan gave it, and, in each of a report's stacks, the first line of the program's own
/// code named. Which code is the program's is given (`userRoot`, the folder its sources are
/// in), so a mistake in telling the program from the runtime shows up here instead of hiding.
///
/// The stacks that count are the accesses, the misused lock's, the lock-order edges', the
/// signal handler's and where the memory was allocated; where a thread or a lock was created is
/// context, and is left out (but for a leaked thread, where that is the report).
public struct ExplanationCoverage: Sendable, Equatable {
    /// "WARNING: ThreadSanitizer: ..." lines in the log, and reports the explanation counts.
    public var reportsInLog: Int
    public var reportsExplained: Int
    /// "ThreadSanitizer: reported N warnings", when the log has it (a crashed program has not).
    public var summaryCount: Int?
    /// Each title TSan printed, once, and those the explanation does not show as printed.
    public var titles: [String]
    public var titlesMissing: [String]
    /// The program's own lines the log's stacks start at ("race.c:12"), once each, and those
    /// the explanation does not name.
    public var userLines: [String]
    public var userLinesMissing: [String]

    public var countsAgree: Bool {
        reportsExplained == reportsInLog && (summaryCount.map { $0 == reportsInLog } ?? true)
    }

    public var isComplete: Bool { countsAgree && titlesMissing.isEmpty && userLinesMissing.isEmpty }

    public static func measure(log: String, explanation: TSanExplanation, userRoot: String) -> ExplanationCoverage {
        let root = userRoot.hasSuffix("/") ? userRoot : userRoot + "/"
        var reports = 0
        var summary: Int?
        var titles: [String] = []
        var lines: [String] = []
        var stackCounts = true  // the stack being read is one that counts
        var stackHasLine = false  // its first user line is already taken
        // Cut into lines as the explainer's reader cuts them (colour codes removed).
        TSanReportParser.forEachLine(of: log) { bytes in
            let line = String(decoding: bytes, as: UTF8.self)
            let text = line.drop { $0 == " " }
            if let title = warningTitle(text) {
                reports += 1
                if !titles.contains(title) { titles.append(title) }
                (stackCounts, stackHasLine) = (true, false)
            } else if text.hasPrefix("ThreadSanitizer: reported "), let count = Int(text.split(separator: " ")[2]) {
                summary = count
            } else if text.first == "#", text.dropFirst().first?.isNumber == true {
                guard stackCounts, !stackHasLine, let place = userLine(text, root: root) else { return }
                stackHasLine = true
                if !lines.contains(place) { lines.append(place) }
            } else {
                // A stack's header: every stack but those saying where a thread or a lock was made.
                // (A leaked thread's report is where it was created.)
                stackCounts =
                    !(text.hasPrefix("Thread T") && text.contains(" created by ") && titles.last != "thread leak")
                    && !(text.hasPrefix("Mutex M") && text.contains(" created at"))
                stackHasLine = false
            }
        }
        let said = explanation.text
        return ExplanationCoverage(
            reportsInLog: reports, reportsExplained: explanation.reportCount, summaryCount: summary,
            titles: titles,
            titlesMissing: titles.filter { !said.contains(": \($0)\n") && !said.contains(": \($0) (printed ") },
            userLines: lines, userLinesMissing: lines.filter { !said.contains($0) })
    }

    /// What is missing, in words; empty when nothing is.
    public var gaps: [String] {
        var gaps: [String] = []
        if reportsExplained != reportsInLog {
            gaps.append("the explanation counts \(reportsExplained) report(s), the log prints \(reportsInLog)")
        }
        if let summaryCount, summaryCount != reportsInLog {
            gaps.append("TSan's summary says \(summaryCount) warnings, the log prints \(reportsInLog)")
        }
        gaps += titlesMissing.map { "title '\($0)' not shown as TSan printed it" }
        gaps += userLinesMissing.map { "\($0) not named" }
        return gaps
    }

    /// `racelab bench explain`'s table: a row per log, then each gap.
    public static func table(_ rows: [(log: String, coverage: ExplanationCoverage)]) -> String {
        let width = max(3, rows.map(\.log.count).max() ?? 0)
        func padded(_ text: String, _ count: Int) -> String {
            text + String(repeating: " ", count: max(0, count - text.count))
        }
        var lines = [padded("LOG", width) + "  REPORTS  TITLES  USER LINES  WHOLE"]
        for (log, coverage) in rows {
            let titles = "\(coverage.titles.count - coverage.titlesMissing.count)/\(coverage.titles.count)"
            let userLines = "\(coverage.userLines.count - coverage.userLinesMissing.count)/\(coverage.userLines.count)"
            lines.append(
                padded(log, width) + "  " + padded("\(coverage.reportsExplained)/\(coverage.reportsInLog)", 7) + "  "
                    + padded(titles, 6) + "  " + padded(userLines, 10) + "  " + (coverage.isComplete ? "yes" : "NO"))
        }
        let whole = rows.filter(\.coverage.isComplete).count
        lines.append("")
        lines.append("Explained whole: \(whole) of \(rows.count) log(s).")
        for (log, coverage) in rows where !coverage.isComplete {
            lines.append("  \(log): " + coverage.gaps.joined(separator: "; "))
        }
        return lines.joined(separator: "\n")
    }

    /// "data race" from "WARNING: ThreadSanitizer: data race (pid=12)".
    static func warningTitle(_ text: Substring) -> String? {
        let prefix = "WARNING: ThreadSanitizer: "
        guard text.hasPrefix(prefix) else { return nil }
        var title = text.dropFirst(prefix.count)
        if let pid = title.range(of: " (pid=", options: .backwards) { title = title[..<pid.lowerBound] }
        return String(title)
    }

    /// "race.c:12" when the frame is in a file under `root` and has a line; else nil.
    static func userLine(_ frame: Substring, root: String) -> String? {
        guard let start = frame.range(of: " " + root) else { return nil }
        let location = frame[frame.index(after: start.lowerBound)...].prefix { $0 != " " }
        let parts = location.split(separator: ":")
        guard parts.count >= 2, let number = Int(parts[1]), number > 0 else { return nil }
        let name = parts[0].split(separator: "/").last.map(String.init) ?? String(parts[0])
        return "\(name):\(number)"
    }
}
