import Foundation

/// A one-line progress display on a terminal's stderr; silent when stderr is not a terminal.
/// Children report from several threads: one line at a time.
final class ProgressLine: @unchecked Sendable {
    let enabled: Bool
    private let lock = NSLock()
    /// The first word of the last phase printed for each prefix (without a terminal).
    private var printed: [String: String] = [:]
    init(enabled: Bool) { self.enabled = enabled }

    func show(_ text: String) {
        guard enabled else { return }
        lock.withLock { FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8)) }
    }

    func clear() {
        guard enabled else { return }
        lock.withLock { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    /// A line that stays (the live line, if any, is drawn again under it by the next `show`).
    func line(_ text: String) {
        lock.withLock { FileHandle.standardError.write(Data(((enabled ? "\r\u{1B}[K" : "") + text + "\n").utf8)) }
    }

    /// "PREFIX: PHASE": live, or without a terminal one line each time the phase's first two
    /// words change (so a log shows "building the kit..." and "calibrating list-adder..." once
    /// each, not every tick of a clock or every run).
    func phase(_ prefix: String, _ phase: String) {
        if enabled { return show("\(prefix): \(phase)") }
        let word = phase.split(separator: " ").prefix(2).joined(separator: " ")
        let isNew = lock.withLock {
            defer { printed[prefix] = word }
            return printed[prefix] != word
        }
        if isNew { line("\(prefix): \(phase)...") }
    }
}

/// One line on standard error.
func stderrLine(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
