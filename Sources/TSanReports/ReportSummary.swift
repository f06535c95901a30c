import Foundation

/// Short, readable descriptions of TSan reports for tables and messages.
public enum ReportSummary {
    /// The first frame in the program itself: not TSan's interceptors, not a frame without a file.
    public static func ownFrame(_ frames: [TSanReport.Frame]) -> TSanReport.Frame? {
        frames.first { frame in
            guard let file = frame.file else { return false }
            return !file.contains("compiler-rt/") && !file.hasPrefix("/<")
        }
    }

    /// "Swift access race: main thread write in ListAdderBroken.removeAll(keepingFirst:) (Broken.swift)
    /// vs thread T7 read in closure #1 in ListAdderBroken.recalculate() (Broken.swift:37)".
    public static func oneLine(_ report: TSanReport) -> String {
        let kind = report.kind == .other ? report.title : report.kind.rawValue
        if report.kind == .lockOrderInversion {
            // The acquisitions that close the cycle, each where the program (not TSan) took it.
            let takes = report.accesses.filter { $0.description.contains("acquired here while holding") }.map { access in
                "\(access.thread ?? "a thread") \(access.description.replacingOccurrences(of: #" acquired here while holding mutex (\w+).*"#, with: " while holding $1", options: .regularExpression).replacingOccurrences(of: "Mutex ", with: "takes "))"
                    + (ownFrame(access.frames).map { " in \($0.demangled)" + ($0.shortLocation.map { " (\($0))" } ?? "") } ?? "")
            }
            return "\(kind) \(report.lockCycle.map { "(\($0.replacingOccurrences(of: #" \(0x[0-9a-f]+\)"#, with: "", options: .regularExpression)))" } ?? ""): "
                + takes.joined(separator: "; ")
        }
        let parts = report.accesses.prefix(2).map { access -> String in
            let action = access.description.hasPrefix("Mutex") ? "lock" : (access.isWrite ? "write" : "read")
            let frame = ownFrame(access.frames) ?? access.frames.first
            let place = frame.map { " in \($0.demangled)" + ($0.shortLocation.map { " (\($0))" } ?? "") } ?? ""
            return "\(access.thread ?? "a thread") \(action)\(place)"
        }
        if parts.isEmpty, let thread = report.threads.first { return "\(kind): \(thread.description)" }
        return parts.isEmpty ? kind : "\(kind): " + parts.joined(separator: " vs ")
    }
}
