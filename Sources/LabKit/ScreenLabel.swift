import Foundation

/// A stand-in for a UI label: text that may only be touched on the main thread, and not at all
/// once its screen was dismissed.
///
/// Like a real UI toolkit, it does not corrupt or crash when misused: its storage sits behind a
/// lock, so an off-main access is not a data race and ThreadSanitizer stays silent. The rule is
/// still broken, and the `MainThreadChecker` records it (with the caller's file:line).
public final class ScreenLabel: @unchecked Sendable {
    public let name: String
    private let lock = NSLock()
    private var storage: String
    private var closed = false
    /// Every text it was given, in order: a value that flashed on screen and was soon replaced
    /// was still seen by the user.
    private var history: [String] = []
    /// A label is a view too: on a screen whose release is checked (`TotalScreen`), it must die
    /// on the main thread as well, even when a worker held it alone.
    private let lifetime: ScreenLifetime?

    /// `tracksItsRelease`: the label's own release is checked like its screen's (the screen has a
    /// `ScreenLifetime`; without one, neither is checked).
    public init(
        _ name: String, text: String = "", tracksItsRelease: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        self.name = name
        self.storage = text
        lifetime = tracksItsRelease ? ScreenLifetime("\(name) label", isPart: true, file: file, line: line) : nil
    }

    public func setText(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        MainThreadChecker.shared.check("\(name) label set to \"\(text)\"", file: file, line: line)
        let wasClosed = lock.withLock { () -> Bool in
            storage = text
            history.append(text)
            return closed
        }
        if wasClosed {
            MainThreadChecker.shared.record(
                "\(name) label of a dismissed screen set to \"\(text)\"", file: file, line: line)
        }
    }

    public func text(file: StaticString = #filePath, line: UInt = #line) -> String {
        MainThreadChecker.shared.check("\(name) label read", file: file, line: line)
        return lock.withLock { storage }
    }

    /// The screen went away: any later update is a callback that reached a dismissed screen.
    public func close() { lock.withLock { closed = true } }

    /// Every text set so far, in order (harness side: no main-thread rule).
    @_spi(LabAuthoring) public var textsShown: [String] { lock.withLock { history } }
}

/// A stand-in for a UI flag (a spinner, a "recalculating" state): main thread only.
public final class ScreenFlag: @unchecked Sendable {
    public let name: String
    private let lock = NSLock()
    private var storage: Bool
    private var closed = false
    /// A view: on a screen whose release is checked, it must die on the main thread too.
    private let lifetime: ScreenLifetime?

    /// `tracksItsRelease`: as for `ScreenLabel`.
    public init(
        _ name: String, isOn: Bool = false, tracksItsRelease: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        self.name = name
        self.storage = isOn
        lifetime = tracksItsRelease ? ScreenLifetime("\(name) flag", isPart: true, file: file, line: line) : nil
    }

    public func set(_ isOn: Bool, file: StaticString = #filePath, line: UInt = #line) {
        MainThreadChecker.shared.check("\(name) flag set to \(isOn)", file: file, line: line)
        let wasClosed = lock.withLock { () -> Bool in
            storage = isOn
            return closed
        }
        if wasClosed {
            MainThreadChecker.shared.record("\(name) flag of a dismissed screen set to \(isOn)", file: file, line: line)
        }
    }

    /// The screen went away: any later update is a callback that reached a dismissed screen.
    public func close() { lock.withLock { closed = true } }

    public func isOn(file: StaticString = #filePath, line: UInt = #line) -> Bool {
        MainThreadChecker.shared.check("\(name) flag read", file: file, line: line)
        return lock.withLock { storage }
    }
}
