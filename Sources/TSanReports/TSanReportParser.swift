import Foundation

/// Reads a stream of TSan output (a child's stderr, or any log) into structured reports.
/// Tolerates colour codes, text between reports, unknown report kinds (kept whole, kind
/// `.other`) and a log cut off in the middle of a report (marked `truncated`).
public enum TSanReportParser {
    static let separator = "=================="
    static let warningPrefix = "WARNING: ThreadSanitizer: "

    public static func parse(_ log: String) -> [TSanReport] {
        var reports: [TSanReport] = []
        var current: [String]?
        for rawLine in stripColour(log).split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            if line.hasPrefix(warningPrefix) {
                if let lines = current { reports.append(report(from: lines, closed: false)) }
                current = [line]
            } else if line == separator {
                if let lines = current { reports.append(report(from: lines, closed: true)) }
                current = nil
            } else {
                current?.append(line)
            }
        }
        if let lines = current { reports.append(report(from: lines, closed: false)) }
        return reports
    }

    /// Parse, then keep one report per pair of code locations.
    public static func parseUnique(_ log: String) -> [TSanReport] {
        var seen = Set<String>()
        return parse(log).filter { seen.insert($0.deduplicationKey).inserted }
    }

    /// Text on stderr meaning the process is crashing (TSan's handler or Swift's runtime).
    public static let crashMarkers = [
        "ThreadSanitizer:DEADLYSIGNAL", "Fatal error:", "Precondition failed:", "Assertion failed:", "ERROR: ThreadSanitizer: SEGV",
        "ERROR: ThreadSanitizer: requested allocation size", "ERROR: ThreadSanitizer: out of memory", "ThreadSanitizer: out of memory",
        "ERROR: ThreadSanitizer failed to allocate",
    ]

    /// The first line that says the process crashed, if any (outside the reports).
    public static func crashLine(in log: String) -> String? {
        stripColour(log).split(separator: "\n").first { line in
            crashMarkers.contains { line.contains($0) }
        }.map { String($0).trimmingCharacters(in: .whitespaces) }
    }

    static func stripColour(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    private enum Section {
        case access, location, thread, mutexAcquisition, mutexCreation, sleep, none
    }

    private static func report(from lines: [String], closed: Bool) -> TSanReport {
        let headline = String(lines[0].dropFirst(warningPrefix.count))
        let title = headline.replacingOccurrences(of: #" \(pid=\d+\)$"#, with: "", options: .regularExpression)
        var report = TSanReport(
            kind: kind(of: title), title: title, accesses: [], location: nil, locationFrames: [], threads: [],
            lockCycle: nil, summary: nil, truncated: !closed,
            text: ([separator] + lines + (closed ? [separator] : [])).joined(separator: "\n"))
        var section = Section.none
        var mutexes: [TSanReport.Access] = []
        var sleepFrames: [TSanReport.Frame]?
        for line in lines.dropFirst() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#"), let frame = frame(trimmed) {
                switch section {
                case .access, .mutexAcquisition: report.accesses[report.accesses.count - 1].frames.append(frame)
                case .location: report.locationFrames.append(frame)
                case .thread: report.threads[report.threads.count - 1].frames.append(frame)
                case .mutexCreation: mutexes[mutexes.count - 1].frames.append(frame)
                case .sleep: sleepFrames?.append(frame)
                case .none: break
                }
                continue
            }
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
                report.threads.append(TSanReport.Access(
                    description: trimmed.trimmingSuffix(":").replacingOccurrences(of: " at", with: "", options: [.anchored, .backwards]),
                    isWrite: false, isPrevious: false, size: nil, thread: threadName(in: trimmed, after: "Thread "), frames: []))
                section = .thread
            } else if trimmed.hasPrefix("Mutex "), trimmed.hasSuffix(":"), trimmed.contains(" acquired ") {
                report.accesses.append(mutexAcquisition(trimmed, previous: report.accesses.last))
                section = .mutexAcquisition
            } else if trimmed.hasPrefix("Mutex "), trimmed.hasSuffix(" created at:") {
                // A lock that one of the racing threads held; not an access of its own.
                mutexes.append(TSanReport.Access(
                    description: trimmed.trimmingSuffix(" at:"), isWrite: false, isPrevious: false, size: nil,
                    thread: nil, frames: [], mutex: mutexName(trimmed)))
                section = .mutexCreation
            } else if trimmed.hasPrefix("As if synchronized via sleep") {
                sleepFrames = []
                section = .sleep
            } else if let access = access(trimmed) {
                report.accesses.append(access)
                section = .access
            } else if !trimmed.isEmpty {
                section = .none
            }
        }
        report.mutexes = mutexes.isEmpty ? nil : mutexes
        report.sleepFrames = sleepFrames
        return report
    }

    private static func kind(of title: String) -> TSanReport.Kind {
        if title.hasPrefix("data race") { return .dataRace }
        if title.hasPrefix("Swift access race") { return .swiftAccessRace }
        if title.hasPrefix("lock-order-inversion") { return .lockOrderInversion }
        if title.hasPrefix("thread leak") { return .threadLeak }
        if title.hasPrefix("heap-use-after-free") { return .heapUseAfterFree }
        return .other
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
            heldMutex: line.firstMatch(of: /while holding mutex (M\d+)/).map { String($0.1) })
    }

    /// "M1" from "Mutex M1 ...".
    private static func mutexName(_ line: String) -> String? {
        line.firstMatch(of: /^Mutex (M\d+)/).map { String($0.1) }
    }

    /// "Previous read of size 8 at 0x7b0c00001234 by thread T7:" and friends.
    private static func access(_ line: String) -> TSanReport.Access? {
        guard line.hasSuffix(":"), line.contains(" at 0x"), line.contains(" by ") else { return nil }
        let lower = line.lowercased()
        let starts = ["read", "write", "previous", "atomic", "modifying", "access"]
        guard starts.contains(where: { lower.hasPrefix($0) }) else { return nil }
        let size = line.firstMatch(of: /of size (\d+)/).flatMap { Int($0.1) }
        // "... by thread T1 (mutexes: write M10, read M11):" lists the locks held at the time.
        let held = line.firstMatch(of: /\(mutexes: ([^)]*)\)/).map {
            $0.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
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
    private static func threadName(in line: String, after marker: String) -> String? {
        guard let range = line.range(of: marker, options: .backwards) else { return nil }
        let rest = line[range.upperBound...]
        if rest.hasPrefix("main thread") { return "main thread" }
        if let match = rest.firstMatch(of: /(?:thread )?(T\d+)/) { return "thread \(match.1)" }
        return nil
    }

    /// "#2 $s4Labs...F /path/Broken.swift:37:30 (racelab+0x10c189) (BuildId: ...)".
    static func frame(_ line: String) -> TSanReport.Frame? {
        guard let match = line.firstMatch(of: /^#\d+ (\S+)(?: (.*?))?(?: \(([^()+]+)\+0x[0-9a-fA-F]+\))?(?: \(BuildId: [0-9a-f]+\))?$/) else {
            return nil
        }
        let function = String(match.1)
        var file: String?, lineNumber: Int?, column: Int?
        if let location = match.2.map(String.init), !location.isEmpty, location != "<null>", !location.hasPrefix("<") {
            var parts = location.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            if parts.count >= 3, let c = Int(parts[parts.count - 1]), let l = Int(parts[parts.count - 2]) {
                column = c; lineNumber = l; parts.removeLast(2)
            } else if parts.count >= 2, let l = Int(parts[parts.count - 1]) {
                lineNumber = l; parts.removeLast()
            }
            file = parts.joined(separator: ":")
        }
        let readable = function == "<null>" ? "<unknown>" : SwiftDemangler.demangle(function)
        return TSanReport.Frame(
            function: function, demangled: readable, file: file, line: lineNumber, column: column,
            module: match.3.map(String.init))
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
