import Foundation

/// Short, readable descriptions of TSan reports for tables and messages.
public enum ReportSummary {
    /// The first frame in the program itself: not TSan's interceptors, the C library, Dispatch,
    /// Foundation, the Swift runtime or compiler-made glue.
    public static func ownFrame(_ frames: [TSanReport.Frame]) -> TSanReport.Frame? {
        frames.first(where: \.isUserCode)
    }

    /// " in ListAdderBroken.recalculate() (Broken.swift:37)", or "" without a frame.
    private static func place(_ frame: TSanReport.Frame?) -> String {
        frame.map { " in \($0.demangled)" + ($0.shortLocation.map { " (\($0))" } ?? "") } ?? ""
    }

    /// "Swift access race: main thread write in ListAdderBroken.removeAll(keepingFirst:) (Broken.swift)
    /// vs thread T7 read in closure #1 in ListAdderBroken.recalculate() (Broken.swift:37)".
    public static func oneLine(_ report: TSanReport) -> String {
        let kind = report.kindName
        if report.kind == .lockOrderInversion {
            // The acquisitions that close the cycle, each where the program (not TSan) took it.
            let takes = report.accesses.filter { $0.description.contains("acquired here while holding") }.map {
                access in
                "\(access.thread ?? "a thread") \(access.description.replacingOccurrences(of: #" acquired here while holding mutex (\w+).*"#, with: " while holding $1", options: .regularExpression).replacingOccurrences(of: "Mutex ", with: "takes "))"
                    + place(ownFrame(access.frames))
            }
            return
                "\(kind) \(report.lockCycle.map { "(\($0.replacingOccurrences(of: #" \(0x[0-9a-f]+\)"#, with: "", options: .regularExpression)))" } ?? ""): "
                + takes.joined(separator: "; ")
        }
        let parts = report.accesses.prefix(2).map { access -> String in
            let action = access.description.hasPrefix("Mutex") ? "lock" : (access.isWrite ? "write" : "read")
            return "\(access.thread ?? "a thread") \(action)" + place(ownFrame(access.frames) ?? access.frames.first)
        }
        if !parts.isEmpty { return "\(kind): " + parts.joined(separator: " vs ") }
        // Mutex misuse, signal handlers, ignores: where it happened in the program's own code.
        if let stack = report.stacks?.first, let frame = ownFrame(stack) ?? stack.first {
            return "\(kind):" + place(frame)
        }
        if let thread = report.threads.first { return "\(kind): \(thread.description)" }
        return kind
    }
}
