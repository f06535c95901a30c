import Foundation

/// One diagnostic swiftc printed: "Labs/ListAdder/Broken.swift:37:25: error: capture of 'self'
/// with non-Sendable type 'ListAdderBroken' in a '@Sendable' closure [#SendableClosureCaptures]".
public struct CompilerDiagnostic: Codable, Sendable, Equatable {
    public enum Severity: String, Codable, Sendable {
        case error, warning, note, remark
    }

    public var severity: Severity
    /// As printed (absolute when swiftc was given absolute paths); nil for a diagnostic with no
    /// place ("<unknown>:0: error: ...", "error: ...").
    public var file: String?
    public var line: Int?
    public var column: Int?
    /// The text, without the trailing group tag.
    public var message: String
    /// The diagnostic group swiftc names in brackets ("SendableClosureCaptures"), when it does.
    public var group: String?

    public init(severity: Severity, file: String?, line: Int?, column: Int?, message: String, group: String? = nil) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.group = group
    }

    /// "Broken.swift:37" (the file's name, not its folders).
    public var shortLocation: String {
        guard let file else { return "" }
        let name = URL(fileURLWithPath: file).lastPathComponent
        return line.map { "\(name):\($0)" } ?? name
    }

    /// "Broken.swift:37: capture of 'self' with non-Sendable type ..."
    public var summary: String { file == nil ? message : "\(shortLocation): \(message)" }

    /// The same place and text: how a Swift 6 warning is told apart from one Swift 5 also gave.
    func isSame(as other: CompilerDiagnostic) -> Bool {
        file == other.file && line == other.line && column == other.column && message == other.message
    }
}
