import Foundation
import LabKit
import TSanReports

/// One run of a user's program under `racelab stress`: how it ended, what ThreadSanitizer said,
/// and so what, if anything, it found wrong.
public struct ProgramRun: Codable, Sendable, Equatable {
    public enum Ending: Codable, Sendable, Equatable {
        case exited(status: Int32)
        case signalled(number: Int32)
        /// Still running at the time limit, and killed.
        case hung(afterSeconds: Double)
    }

    /// What is wrong with a run, the first that applies: a ThreadSanitizer report, a crash (an
    /// assertion that failed ends in SIGABRT), a hang (a deadlock, or a wait nothing ends), or an
    /// exit status other than 0.
    public enum Finding: Codable, Sendable, Equatable, CustomStringConvertible {
        case report(kind: String)
        /// signal nil: ended by ThreadSanitizer's own crash handler, which exits with a status.
        case crash(signal: Int32?, line: String?)
        case hang(afterSeconds: Double)
        case exitStatus(Int32)

        public var description: String {
            switch self {
            case .report(let kind): "ThreadSanitizer: \(kind)"
            case .crash(let signal, let line):
                "crash" + (signal.map { ", " + Self.signalName($0) } ?? "") + (line.map { ": \($0)" } ?? "")
            case .hang(let seconds): "hang: still running after \(Self.seconds(seconds)) s, killed"
            case .exitStatus(let status): "exit status \(status)"
            }
        }

        /// A short name for tables: "report", "crash", "hang", "exit".
        public var category: String {
            switch self {
            case .report: "report"
            case .crash: "crash"
            case .hang: "hang"
            case .exitStatus: "exit"
            }
        }

        static func signalName(_ number: Int32) -> String {
            switch number {
            case SIGABRT: "SIGABRT (an assertion or abort())"
            case SIGSEGV: "SIGSEGV"
            case SIGBUS: "SIGBUS"
            case SIGILL: "SIGILL (a Swift runtime trap)"
            case SIGTRAP: "SIGTRAP (a Swift runtime trap)"
            case SIGFPE: "SIGFPE"
            case SIGPIPE: "SIGPIPE"
            case SIGKILL: "SIGKILL"
            default: "signal \(number)"
            }
        }

        static func seconds(_ value: Double) -> String { String(format: "%.1f", value) }
    }

    /// 1-based.
    public var index: Int
    /// The seed its preemption used; nil for a plain run.
    public var seed: UInt64?
    public var ending: Ending
    /// The kinds of ThreadSanitizer's reports, in the order printed.
    public var reportKinds: [String]
    public var seconds: Double
    /// Synchronisation points RaceLab saw and pauses it made (hand-overs, in a priority run); nil
    /// when the program did not end normally (no count is written then) or ran plain.
    public var points: Int?
    public var pauses: Int?
    /// RaceLab's preemption was loaded into the program (it says so as the program starts).
    public var preemptionLoaded: Bool = false
    /// How it acted at the synchronisation points (nil: a plain run), and for a priority run the
    /// number of points its change points were drawn from.
    public var schedule: StressSchedule?
    public var steps: Int?

    /// Everything wrong with the run: its first ThreadSanitizer report, then how it ended. (Runs
    /// are made with TSan's own exit status off, so a status is the program's.)
    public var findings: [Finding] {
        var found: [Finding] = reportKinds.first.map { [.report(kind: $0)] } ?? []
        switch ending {
        case .signalled(let number): found.append(.crash(signal: number, line: crashLine))
        case .hung(let seconds): found.append(.hang(afterSeconds: seconds))
        case .exited(let status):
            // TSan's own crash handler ends the process with an exit status, not a signal.
            if crashLine != nil {
                found.append(.crash(signal: nil, line: crashLine))
            } else if status != 0 {
                found.append(.exitStatus(status))
            }
        }
        return found
    }

    /// What is wrong with the run, leaving out the categories ("report", "crash", "hang",
    /// "exit") the user asked to ignore.
    public func finding(ignoring ignored: Set<String> = []) -> Finding? {
        findings.first { !ignored.contains($0.category) }
    }

    /// The line that says why it crashed ("Assertion `x == 1' failed.", a Swift fatal error).
    public var crashLine: String?

    public init(
        index: Int, seed: UInt64?, ending: Ending, reportKinds: [String], crashLine: String?, seconds: Double,
        points: Int? = nil, pauses: Int? = nil
    ) {
        self.index = index
        self.seed = seed
        self.ending = ending
        self.reportKinds = reportKinds
        self.crashLine = crashLine
        self.seconds = seconds
        self.points = points
        self.pauses = pauses
    }

    /// A run classified from what the process did and printed.
    public init(index: Int, seed: UInt64?, tool: ToolProcess.Result, timeout: Double, tally: String?) {
        let ending: Ending =
            if tool.timedOut { .hung(afterSeconds: timeout) } else if let signal = tool.signal {
                .signalled(number: signal)
            } else { .exited(status: tool.status) }
        let counts = tally.map { $0.split(whereSeparator: \.isWhitespace).compactMap { Int($0) } } ?? []
        self.init(
            index: index, seed: seed, ending: ending,
            reportKinds: TSanReportParser.parse(tool.output).map(\.kindName),
            crashLine: Self.crashLine(in: tool.output), seconds: tool.seconds,
            points: counts.count == 2 ? counts[0] : nil, pauses: counts.count == 2 ? counts[1] : nil)
        preemptionLoaded = tally != nil
    }

    /// The C library's failed assertion, a Swift runtime error, or TSan's own crash line.
    static func crashLine(in output: String) -> String? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: true)
        if let line = lines.first(where: {
            $0.contains("Assertion `") || $0.contains("Fatal error:") || $0.contains("Assertion failed")
        }) {
            return String(line.trimmingCharacters(in: .whitespaces).suffix(300))
        }
        return TSanReportParser.crashLine(in: output)
    }
}
