/// One report of a log, explained; repeats of the same report are counted, not explained again.
public struct ExplainedReport: Codable, Sendable, Equatable {
    public var report: TSanReport
    /// How many times the log printed this report (same kind, same places).
    public var occurrences: Int
    public var explanation: String
}

/// What `racelab explain` says about a log: the parsed reports and the plain-words text.
public struct TSanExplanation: Codable, Sendable, Equatable {
    /// Reports as printed in the log, repeats included.
    public var reportCount: Int
    public var reports: [ExplainedReport]
    /// How many reports of each kind the log printed (`TSanReport.Kind.rawValue`), shown or not.
    public var kinds: [String: Int]
    /// Reports not explained because the log held more than `ReportGrouper.maximumShown`
    /// different ones (they are counted in `reportCount` and `kinds`).
    public var reportsNotShown: Int
    /// Lines that say the program crashed ("Fatal error: ...").
    public var crashLines: [String]
    /// What was read: bytes, lines cut for being too long, control bytes skipped.
    public var bytesRead: Int
    public var linesCut: Int
    public var binaryBytesSkipped: Int
    /// The whole explanation, as printed.
    public var text: String
}

/// Turns a ThreadSanitizer log into an explanation for a learner: what kind of problem, where
/// in the program's own code (and, with `showStacks`, the whole call chains), the memory or
/// the lock, why it went wrong, and the usual cures. The log is read as a stream, a line at a
/// time, in memory bounded whatever its size. No I/O but reading the given source: source
/// lines come from `sourceLine`, which may return nil.
public enum TSanExplainer {
    /// The text of `line` (1-based) in `file`, or nil when the file cannot be read.
    public typealias SourceLookup = (_ file: String, _ line: Int) -> String?

    public static func explain(
        _ log: String, width: Int = 80, showStacks: Bool = false,
        sourceLine: @escaping SourceLookup = { _, _ in nil }
    ) -> TSanExplanation {
        // A string in memory is explained even if it is mostly junk: its caller chose it.
        var reader = LogLineReader(InMemorySource(log), refusesBinary: false)
        do {
            return try explain(reading: &reader, width: width, showStacks: showStacks, sourceLine: sourceLine)
        } catch {
            preconditionFailure("a reader that refuses nothing refused a string: \(error)")
        }
    }

    /// Reads `reader` to its end and explains what it held.
    public static func explain<Source>(
        reading reader: inout LogLineReader<Source>, width: Int = 80, showStacks: Bool = false,
        sourceLine: @escaping SourceLookup = { _, _ in nil }
    ) throws(LogReadError) -> TSanExplanation {
        var collector = ReportBlockCollector()
        var grouper = ReportGrouper(explanationKey: explanationKey)
        try reader.forEachLine { line in
            collector.consume(line) { grouper.add($0) }
        }
        collector.finish { grouper.add($0) }
        return explanation(
            grouper, crashLines: collector.crashLines, reader: reader, width: width, showStacks: showStacks,
            sourceLine: sourceLine)
    }

    /// Two reports whose explanations (without source lines, unwrapped) read the same are one problem.
    static func explanationKey(_ report: TSanReport) -> String {
        var probe = Writer(width: Writer.unwrapped, sourceLine: { _, _ in nil })
        probe.body(report)
        return report.kindName + (report.truncated ? " (cut off)" : "") + "\n" + probe.text
    }

    private static func explanation<Source>(
        _ grouper: ReportGrouper, crashLines crashes: [String], reader: LogLineReader<Source>,
        width: Int, showStacks: Bool, sourceLine: @escaping SourceLookup
    ) -> TSanExplanation {
        let groups = grouper.groups
        var text = Writer(width: width, sourceLine: sourceLine, showStacks: showStacks)
        text.say(headline(reportCount: grouper.reportCount, distinct: groups.count))
        if grouper.notShown > 0 {
            text.say(
                "Only the first \(groups.count) different reports are explained; \(grouper.notShown) more "
                    + "(of the kinds counted at the end) are not.")
        }
        let explained = explainEach(groups, into: &text)
        sayAfterReports(grouper, crashLines: crashes, reader: reader, into: &text)
        return TSanExplanation(
            reportCount: grouper.reportCount, reports: explained, kinds: grouper.kindCounts,
            reportsNotShown: grouper.notShown,
            crashLines: crashes, bytesRead: reader.bytesRead, linesCut: reader.linesCut,
            binaryBytesSkipped: reader.binaryBytes,
            text: text.text)
    }

    /// Each group's report explained on its own (for the JSON) and in `text`, in order.
    private static func explainEach(_ groups: [ReportGrouper.Group], into text: inout Writer) -> [ExplainedReport] {
        var explained: [ExplainedReport] = []
        var firstOfKind: [String: Int] = [:]  // a kind is described in full once per log
        for (number, group) in groups.enumerated() {
            var part = Writer(width: text.width, sourceLine: text.sourceLine, showStacks: text.showStacks)
            let kindName = group.report.kindName
            part.explain(
                group.report, number: number + 1, of: groups.count, occurrences: group.count,
                describedIn: firstOfKind[kindName])
            if firstOfKind[kindName] == nil { firstOfKind[kindName] = number + 1 }
            explained.append(ExplainedReport(report: group.report, occurrences: group.count, explanation: part.text))
            text.blank()
            text.lines += part.lines
            text.shownSource = text.shownSource || part.shownSource
        }
        return explained
    }

    /// What follows the reports: where to look when there were none, the crash, the count of
    /// each kind, what reading the log skipped, and a warning about quoted source lines.
    private static func sayAfterReports<Source>(
        _ grouper: ReportGrouper, crashLines crashes: [String], reader: LogLineReader<Source>,
        into text: inout Writer
    ) {
        let groups = grouper.groups
        if groups.isEmpty {
            text.blank()
            text.say(
                """
                TSan writes its reports to standard error; each starts with "WARNING: ThreadSanitizer:". \
                If you expected one: build with `swift build --sanitize=thread`, keep standard error \
                (2> log.txt), and run a few times. TSan only sees a race that really happens in that run.
                """)
        }
        if !crashes.isEmpty {
            text.blank()
            text.crashes(crashes, afterReports: !groups.isEmpty)
        }
        if grouper.notShown > 0 || groups.count > 1 && grouper.kindCounts.count > 1 {
            text.blank()
            let tally = grouper.kindCounts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
                "\($0.key): \($0.value)"
            }
            text.say("Reports by kind: " + tally.joined(separator: ", ") + ".")
        }
        if reader.linesCut > 0 || reader.binaryBytes > 0 {
            text.blank()
            var notes: [String] = []
            if reader.linesCut > 0 {
                notes.append(
                    "\(reader.linesCut) line(s) longer than \(LogLineReader<Source>.maximumLineLength) bytes were cut to that length"
                )
            }
            if reader.binaryBytes > 0 {
                notes.append("\(reader.binaryBytes) control byte(s) that are not text were skipped")
            }
            text.say("(Reading the log: " + notes.joined(separator: "; ") + ".)")
        }
        if text.shownSource {
            text.blank()
            text.say(
                "(Source lines are read from the files as they are now: if one changed after the run, it may not match.)"
            )
        }
    }

    static func headline(reportCount: Int, distinct: Int) -> String {
        switch (reportCount, distinct) {
        case (0, _): return "racelab explain: no ThreadSanitizer report found in this log."
        case (1, _): return "racelab explain: 1 ThreadSanitizer report in this log."
        case (let count, let distinct) where distinct == count:
            return "racelab explain: \(count) ThreadSanitizer reports in this log."
        case (let count, let distinct):
            return "racelab explain: \(count) ThreadSanitizer reports in this log, \(distinct) different "
                + "(a report that reads the same as an earlier one is explained once)."
        }
    }
}

// MARK: - One report

extension TSanExplainer.Writer {
    /// `describedIn`: the number of an earlier report of the same kind, which said what it is.
    mutating func explain(_ report: TSanReport, number: Int, of total: Int, occurrences: Int, describedIn: Int? = nil) {
        let kindName = report.kindName
        // The title exactly as TSan printed it, so a reader can search for it.
        var title = "Report \(number) of \(total): \(report.title.isEmpty ? kindName : report.title)"
        if occurrences > 1 { title += " (printed \(occurrences) times)" }
        heading(title)
        if report.truncated {
            say("Cut off: the log ends in the middle of this report, so some parts are missing below.")
        }
        if let dropped = report.linesDropped {
            say(
                "(This report was longer than \(ReportBlockCollector.maximumLines) lines: its last \(dropped) were left out.)"
            )
        }
        blank()
        if let describedIn, report.kind != .other {
            say("What it is: another \(kindName); report \(describedIn) says what that means.")
            blank()
        } else if let whatItIs = Explainer.whatItIs(report) {
            say(whatItIs)
            blank()
        }
        body(report)
    }

    /// Everything after "What it is": the part that differs from one report to the next.
    mutating func body(_ report: TSanReport) {
        switch report.kind {
        case .dataRace, .swiftAccessRace, .externalRace, .vptrRace: explainRace(report)
        case .heapUseAfterFree, .vptrUseAfterFree: explainUseAfterFree(report)
        case .lockOrderInversion: explainLockOrder(report)
        case .threadLeak: explainThreadLeak(report)
        case .ignoresNotEnded: explainIgnoresNotEnded(report)
        case .signalUnsafeCall, .signalSpoilsErrno: explainSignal(report)
        case _ where report.kind.isMutexMisuse: explainMutexMisuse(report)
        default: explainUnknown(report)
        }
    }

    mutating func explainUnknown(_ report: TSanReport) {
        say("RaceLab has no plain-words explanation for this kind of report. Here it is whole, as TSan printed it:")
        blank()
        verbatim(report.text)
    }

    mutating func crashes(_ crashLines: [String], afterReports: Bool) {
        say(crashLines.count == 1 ? "The log also shows a crash:" : "The log also shows crashes:")
        for line in crashLines { say(line, indent: 2, hanging: 4) }
        if afterReports {
            say(
                """
                A crash after a race is often its result: a thread used data that another thread \
                changed under it (for example, an index that was valid when checked is gone when \
                used). Fix the race first; the crash often goes away with it.
                """)
        } else {
            say(
                "There is no race report, so the crash may have another cause. If threads share data, run it again under TSan."
            )
        }
    }
}
