/// A stand-in for a UI label: text that may only be touched on the main thread.
/// Off-main access is recorded by the `MainThreadChecker`, not prevented: the storage is an
/// ordinary property, so an off-main write is also a genuine data race.
public final class ScreenLabel: @unchecked Sendable {
    public let name: String
    private var storage: String

    public init(_ name: String, text: String = "") {
        self.name = name
        self.storage = text
    }

    public func setText(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        MainThreadChecker.shared.check("\(name) label set to \"\(text)\"", file: file, line: line)
        storage = text
    }

    public func text(file: StaticString = #filePath, line: UInt = #line) -> String {
        MainThreadChecker.shared.check("\(name) label read", file: file, line: line)
        return storage
    }
}

/// A stand-in for a UI flag (a spinner, a "recalculating" state): main thread only.
public final class ScreenFlag: @unchecked Sendable {
    public let name: String
    private var storage: Bool

    public init(_ name: String, isOn: Bool = false) {
        self.name = name
        self.storage = isOn
    }

    public func set(_ isOn: Bool, file: StaticString = #filePath, line: UInt = #line) {
        MainThreadChecker.shared.check("\(name) flag set to \(isOn)", file: file, line: line)
        storage = isOn
    }

    public func isOn(file: StaticString = #filePath, line: UInt = #line) -> Bool {
        MainThreadChecker.shared.check("\(name) flag read", file: file, line: line)
        return storage
    }
}
