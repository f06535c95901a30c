import Foundation

/// Reads TSan output (a child's stderr, or any log) into structured reports. Tolerates colour
/// codes, text between reports, unknown report kinds (kept whole, kind `.other`), a log cut off
/// in the middle of a report (marked `truncated`), overlong lines and binary junk. The work is
/// done a line at a time (`LogLineReader`, `ReportBlockCollector`); these are the conveniences
/// for a log already in memory.
public enum TSanReportParser {
    static let separator = ReportBlockCollector.separator.description
    static let warningPrefix = ReportBlockCollector.warningPrefix.description
    /// More reports than this in one string are not parsed (the harness's logs have a few).
    static let maximumReports = 10_000

    public static func parse(_ log: String) -> [TSanReport] {
        var reports: [TSanReport] = []
        var collector = ReportBlockCollector()
        forEachLine(of: log) { line in
            collector.consume(line) { block in
                if reports.count < maximumReports { reports.append(report(from: block)) }
            }
        }
        collector.finish { block in
            if reports.count < maximumReports { reports.append(report(from: block)) }
        }
        return reports
    }

    /// Parse, then keep one report per set of places in the program's own code.
    public static func parseUnique(_ log: String) -> [TSanReport] {
        var seen = Set<String>()
        return parse(log).filter { seen.insert($0.deduplicationKey).inserted }
    }

    /// Text on stderr meaning the process is crashing (TSan's handler or Swift's runtime).
    public static let crashMarkers = ReportBlockCollector.crashMarkers.map(\.description)

    /// The first line that says the process crashed, if any.
    public static func crashLine(in log: String) -> String? {
        var collector = ReportBlockCollector()
        forEachLine(of: log) { collector.consume($0) { _ in } }
        return collector.crashLines.first
    }

    /// The lines of a log in memory, as the streaming reader cuts them (colour removed, each
    /// line bounded). A string holds no unreadable bytes worth refusing, so binary junk in it
    /// is dropped rather than reported.
    static func forEachLine(of log: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var reader = LogLineReader(InMemorySource(log), refusesBinary: false)
        do {
            try reader.forEachLine(body)
        } catch {
            preconditionFailure("a reader that refuses nothing refused a string: \(error)")
        }
    }

    static func frame(_ line: String) -> TSanReport.Frame? { TSanFrameParser.frame(line) }

    // MARK: one report

    static func report(from block: ReportBlock) -> TSanReport {
        let lines = block.lines
        let headline = lines.first ?? ""
        let isWarning = headline.hasPrefix(warningPrefix)
        var report =
            isWarning ? warningReport(headline, closed: block.closed) : ignoresReport(headline, closed: block.closed)
        report.linesDropped = block.linesDropped > 0 ? block.linesDropped : nil
        report.text =
            ((isWarning ? [separator] : []) + lines + (block.closed && isWarning ? [separator] : []))
            .joined(separator: "\n")
        var sections = SectionReader(report)
        for line in lines.dropFirst() { sections.read(line) }
        return sections.finished()
    }

    /// "WARNING: ThreadSanitizer: data race (pid=4242)": the kind and the title, nothing read yet.
    private static func warningReport(_ headline: String, closed: Bool) -> TSanReport {
        var title = String(headline.dropFirst(warningPrefix.count))
        if let pid = title.range(of: " (pid=", options: .backwards), title.hasSuffix(")") {
            title = String(title[..<pid.lowerBound])
        }
        return TSanReport(
            kind: TSanReport.Kind(title: title), title: title, accesses: [], location: nil, locationFrames: [],
            threads: [], lockCycle: nil, summary: nil, truncated: !closed, text: "")
    }

    /// The lines after a report's headline, read into it one at a time: a line opens a section
    /// (an access, a thread's creation, a lock, a stack...), or is a frame of the open one.
    private struct SectionReader {
        private enum Section {
            case access, location, thread, mutexAcquisition, mutexCreation, sleep, stack, none
        }

        private var report: TSanReport
        private var section: Section
        private var stacks: [[TSanReport.Frame]] = []
        private var mutexes: [TSanReport.Access] = []
        private var sleepFrames: [TSanReport.Frame]?

        init(_ report: TSanReport) {
            self.report = report
            // Frames straight after the headline are the report's own stack (mutex misuse, a
            // signal-unsafe call); for the ignores message they are the thread's creation.
            section = report.kind == .ignoresNotEnded && !report.threads.isEmpty ? .thread : .stack
        }

        mutating func read(_ line: String) {
            // TSan indents with spaces; Foundation's trimming costs more than the rest of a line.
            let trimmed = line.first == " " ? String(line.drop { $0 == " " }) : line
            if trimmed.hasPrefix("#") {
                if let frame = TSanFrameParser.frame(trimmed) { add(frame) }
            } else {
                openSection(trimmed)
            }
        }

        /// The report, with what its sections held.
        func finished() -> TSanReport {
            var report = report
            report.mutexes = mutexes.isEmpty ? nil : mutexes
            report.sleepFrames = sleepFrames
            report.stacks = stacks.isEmpty ? nil : stacks
            return report
        }

        private mutating func add(_ frame: TSanReport.Frame) {
            switch section {
            case .access, .mutexAcquisition: report.accesses[report.accesses.count - 1].frames.append(frame)
            case .location: report.locationFrames.append(frame)
            case .thread: report.threads[report.threads.count - 1].frames.append(frame)
            case .mutexCreation: mutexes[mutexes.count - 1].frames.append(frame)
            case .sleep: sleepFrames?.append(frame)
            case .stack:
                if stacks.isEmpty { stacks.append([]) }
                stacks[stacks.count - 1].append(frame)
            case .none: break
            }
        }

        /// A line that is not a frame (`trimmed`: without its indent): the section it opens, if any.
        private mutating func openSection(_ trimmed: String) {
            if trimmed.hasPrefix("SUMMARY: ") {
                report.summary = String(trimmed.dropFirst("SUMMARY: ".count))
                section = .none
            } else if trimmed.hasPrefix("Location is ") {
                report.location = String(trimmed.dropFirst("Location is ".count)).trimmingSuffix(":")
                section = .location
            } else if trimmed.hasPrefix("Cycle in lock order graph: ") {
                report.lockCycle = String(trimmed.dropFirst("Cycle in lock order graph: ".count))
                section = .none
            } else if trimmed.hasPrefix("Thread T"), trimmed.contains("created by") {
                report.threads.append(
                    TSanReport.Access(
                        description: trimmed.trimmingSuffix(":").trimmingSuffix(" at"),
                        isWrite: false, isPrevious: false, size: nil,
                        thread: TSanReportParser.threadName(in: trimmed, after: "Thread "), frames: []))
                section = .thread
            } else if trimmed.hasPrefix("Mutex "), trimmed.hasSuffix(":"), trimmed.contains(" acquired ") {
                report.accesses.append(TSanReportParser.mutexAcquisition(trimmed, previous: report.accesses.last))
                section = .mutexAcquisition
            } else if trimmed.hasPrefix("Mutex "), trimmed.hasSuffix(" created at:") {
                // A lock that the report's threads held or misused; not an access of its own.
                mutexes.append(
                    TSanReport.Access(
                        description: trimmed.trimmingSuffix(" at:"), isWrite: false, isPrevious: false, size: nil,
                        thread: nil, frames: [], mutex: TSanReportParser.mutexName(trimmed)))
                section = .mutexCreation
            } else if trimmed.hasPrefix("As if synchronized via sleep") {
                sleepFrames = []
                section = .sleep
            } else if trimmed == "and:" || trimmed == "Ignore was enabled at:" {
                stacks.append([])
                section = .stack
            } else if trimmed.hasPrefix("Signal "), trimmed.hasSuffix(" handler invoked at:") {
                report.signal = Int(trimmed.dropFirst("Signal ".count).prefix { $0.isNumber })
                stacks.append([])
                section = .stack
            } else if let access = TSanReportParser.access(trimmed) {
                report.accesses.append(access)
                section = .access
            } else if !trimmed.isEmpty {
                section = .none
            }
        }
    }

    /// "ThreadSanitizer: thread T1  finished with ignores enabled, created at:" or
    /// "ThreadSanitizer: main thread finished with ignores enabled".
    private static func ignoresReport(_ headline: String, closed: Bool) -> TSanReport {
        let body = String(headline.dropFirst(ReportBlockCollector.ignoresPrefix.utf8CodeUnitCount))
        let thread =
            body.hasPrefix("main thread")
            ? "main thread" : body.firstMatch(of: /^thread (T\d+)/).map { "thread \($0.1)" }
        let title = "\(thread ?? "a thread") finished with ignores enabled"
        var threads: [TSanReport.Access] = []
        if let thread, thread != "main thread" {
            let name = body.firstMatch(of: /^thread T\d+ '?(.*?)'?\s*finished/).map { String($0.1) }.flatMap {
                $0.isEmpty ? nil : $0
            }
            threads.append(
                TSanReport.Access(
                    description: "Thread \(thread.dropFirst("thread ".count))" + (name.map { " '\($0)'" } ?? "")
                        + " (finished)",
                    isWrite: false, isPrevious: false, size: nil, thread: thread, frames: []))
        }
        return TSanReport(
            kind: .ignoresNotEnded, title: title, accesses: [], location: nil, locationFrames: [],
            threads: threads, lockCycle: nil, summary: nil, truncated: !closed, text: "")
    }

    /// "Mutex M1 acquired here while holding mutex M0 in thread T1:", or (with
    /// second_deadlock_stack=1) "Mutex M0 previously acquired by the same thread here:", which
    /// names no thread: it is the thread of the section just before.
    private static func mutexAcquisition(_ line: String, previous: TSanReport.Access?) -> TSanReport.Access {
        let sameThread = line.contains("by the same thread")
        return TSanReport.Access(
            description: line.trimmingSuffix(":"), isWrite: false, isPrevious: line.contains(" previously "), size: nil,
            thread: sameThread ? previous?.thread : threadName(in: line, after: " in "), frames: [],
            mutex: mutexName(line),
            heldMutex: line.range(of: "while holding mutex ").flatMap {
                mutexName(String(line[$0.upperBound...]), prefix: "")
            })
    }

    /// "M1" from "Mutex M1 ...".
    private static func mutexName(_ line: String, prefix: String = "Mutex ") -> String? {
        guard line.hasPrefix(prefix + "M") else { return nil }
        let digits = line.dropFirst(prefix.count + 1).prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : "M\(digits)"
    }

    /// "Previous read of size 8 at 0x7b0c00001234 by thread T7:" and friends, including an
    /// annotated object's "Modifying access of Cache at 0x... by thread T2:".
    private static func access(_ line: String) -> TSanReport.Access? {
        guard line.hasSuffix(":"), line.contains(" at 0x"), line.contains(" by ") else { return nil }
        let lower = line.lowercased()
        let starts = ["read", "write", "previous", "atomic", "modifying", "access"]
        guard starts.contains(where: { lower.hasPrefix($0) }) else { return nil }
        let size = number(after: "of size ", in: line)
        // "... by thread T1 (mutexes: write M10, read M11):" lists the locks held at the time.
        let held = line.range(of: "(mutexes: ").map { start in
            line[start.upperBound...].prefix { $0 != ")" }.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        let header = line.trimmingSuffix(":")
        return TSanReport.Access(
            description: header,
            isWrite: lower.contains("write") || lower.contains("modifying"),
            isPrevious: lower.hasPrefix("previous"),
            size: size,
            thread: threadName(in: header, after: " by "),
            frames: [],
            heldMutexes: held)
    }

    /// "main thread" or "thread T7" after the given marker.
    static func threadName(in line: String, after marker: String) -> String? {
        guard let range = line.range(of: marker, options: .backwards) else { return nil }
        let rest = line[range.upperBound...]
        if rest.hasPrefix("main thread") { return "main thread" }
        let name = rest.hasPrefix("thread ") ? rest.dropFirst("thread ".count) : rest
        guard name.first == "T" else { return nil }
        let digits = name.dropFirst().prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : "thread T\(digits)"
    }

    /// The number right after `marker` in `line` ("of size 8" gives 8), nil without one.
    private static func number(after marker: String, in line: String) -> Int? {
        guard let start = line.range(of: marker) else { return nil }
        return Int(line[start.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
