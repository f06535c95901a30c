import Foundation

/// Why a child crashed, in words a student can act on, and where: the first frame of the
/// program's own code on the crashing thread's stack (TSan prints that stack for a deadly
/// signal), or the Swift runtime's own message.
public struct CrashCause: Sendable, Equatable {
    /// "Index out of range", "DispatchQueue.sync onto the queue it is already running on"...
    public let cause: String
    /// The first frame of the program's own code, when the stack shows one.
    public let frame: TSanReport.Frame?

    /// "Index out of range, at Exercise.swift:40 in ListAdderExercise.recalculate()".
    public var summary: String {
        cause + (frame.map { ", at \($0.shortLocation ?? "?") in \($0.demangled)" } ?? "")
    }

    /// Traps that libdispatch and the runtime raise on purpose, by a frame of the crashing stack.
    static let knownTraps: [(frame: String, cause: String)] = [
        (
            "__DISPATCH_WAIT_FOR_QUEUE__",
            "DispatchQueue.sync onto the queue it is already running on: a deadlock, which libdispatch stops with a trap"
        ),
        (
            "_dispatch_assert_queue_fail",
            "dispatchPrecondition(condition: .onQueue(...)) failed: this code ran on another queue"
        ),
        (
            "_dispatch_assert_queue_not_fail",
            "dispatchPrecondition(condition: .notOnQueue(...)) failed: this code ran on the queue it must not"
        ),
        ("dispatch_group_leave", "DispatchGroup.leave() was called more often than enter()"),
        ("_dispatch_group_dispose", "a DispatchGroup was released while work had entered it and not left"),
        (
            "_dispatch_semaphore_dispose",
            "a DispatchSemaphore was released with threads still owed a signal (its value below the starting one)"
        ),
        ("_dispatch_queue_xref_dispose", "a suspended DispatchQueue was released (resume it first)"),
        ("_dispatch_source_xref_dispose", "a suspended DispatchSource was released (resume it first)"),
        ("dispatch_resume", "a DispatchQueue or DispatchSource was resumed more often than it was suspended"),
        ("swift_deallocClassInstance", "an object was freed while something still used it"),
        ("swift_release", "an object was released after it was freed: another thread let go of it at the same time"),
        ("swift_retain", "an object was used after it was freed: another thread let go of it at the same time"),
        (
            "swift_unknownObjectRelease",
            "an object was released after it was freed: another thread let go of it at the same time"
        )
    ]

    /// The crash in `stderr`, nil when nothing there says the process crashed.
    /// `isOwnCode` picks the frames to point at (default: the program's own code).
    public static func find(in stderr: String, isOwnCode: (TSanReport.Frame) -> Bool = { $0.origin == .userCode })
        -> CrashCause?
    {
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false).prefix(20_000)
        // The Swift runtime says why it stopped ("Fatal error: Index out of range").
        var message: String?
        for line in lines {
            for marker in ["Fatal error: ", "Precondition failed: ", "Assertion failed: ", "Unexpectedly found nil"] {
                if let range = line.range(of: marker) {
                    message =
                        marker.hasPrefix("Unexpectedly")
                        ? String(line[range.lowerBound...]) : String(line[range.upperBound...])
                    message = message.map { $0.isEmpty ? marker.trimmingCharacters(in: .whitespaces) : $0 }
                    break
                }
            }
            if message != nil { break }
        }
        // TSan's deadly-signal report: "ERROR: ThreadSanitizer: ILL on unknown address ..." and a stack.
        var signal: String?
        var frames: [TSanReport.Frame] = []
        if let start = lines.firstIndex(where: {
            $0.contains("ERROR: ThreadSanitizer: ") && $0.contains(" on unknown address")
                || $0.contains("ERROR: ThreadSanitizer: SEGV")
        }) {
            let text = lines[start]
            if let range = text.range(of: #"ThreadSanitizer: ([A-Z]+)"#, options: .regularExpression) {
                signal = String(text[range].dropFirst("ThreadSanitizer: ".count))
            }
            for line in lines[(start + 1)...].prefix(200) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("SUMMARY") || trimmed.hasPrefix("==") {
                    if !frames.isEmpty { break } else { continue }
                }
                if let frame = TSanFrameParser.frame(trimmed) { frames.append(frame) }
            }
        }
        guard message != nil || signal != nil else { return nil }
        let own = frames.first(where: isOwnCode)
        if let message { return CrashCause(cause: message, frame: own) }
        let names = frames.map { $0.function + " " + $0.demangled }
        if let trap = knownTraps.first(where: { trap in names.contains { $0.contains(trap.frame) } }) {
            return CrashCause(cause: trap.cause, frame: own)
        }
        let words: [String: String] = [
            "SEGV": "a bad memory access (SIGSEGV)", "BUS": "a bad memory access (SIGBUS)",
            "ILL": "a trap (SIGILL): a runtime check stopped the program",
            "FPE": "an arithmetic error (SIGFPE)", "ABRT": "the program aborted (SIGABRT)", "TRAP": "a trap (SIGTRAP)"
        ]
        return CrashCause(cause: words[signal ?? ""] ?? "a fatal signal (\(signal ?? "?"))", frame: own)
    }
}
