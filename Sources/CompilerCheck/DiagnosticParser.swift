import Foundation

/// Reads swiftc's diagnostics as `-diagnostic-style llvm` prints them: one header line per
/// diagnostic ("FILE:LINE:COL: SEVERITY: MESSAGE [#Group]"), followed by the source line, a caret
/// and fix-it text, which are skipped. Lines that are not headers (progress, the source excerpt,
/// the driver's own chatter) are ignored, so any output can be given.
public enum DiagnosticParser {
    public static func parse(_ output: String) -> [CompilerDiagnostic] {
        output.split(separator: "\n", omittingEmptySubsequences: true).compactMap { parseLine(String($0)) }
    }

    /// "FILE:LINE:COL: error: MESSAGE", "FILE:LINE: error: MESSAGE", "<unknown>:0: error: MESSAGE",
    /// "error: MESSAGE"; nil for any other line.
    static func parseLine(_ line: String) -> CompilerDiagnostic? {
        for severity in [CompilerDiagnostic.Severity.error, .warning, .note, .remark] {
            let marker = "\(severity.rawValue): "
            if line.hasPrefix(marker) {
                return diagnostic(severity, file: nil, line: nil, column: nil, text: line.dropFirst(marker.count))
            }
            guard let range = line.range(of: ": " + marker) else { continue }
            let place = line[..<range.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
            // The place is FILE:LINE[:COL]; a file name may itself hold colons, so read from the end.
            var numbers: [Int] = []
            var fileEnd = place.endIndex
            while fileEnd > place.startIndex, numbers.count < 2, let number = Int(place[fileEnd - 1]) {
                numbers.insert(number, at: 0)
                fileEnd -= 1
            }
            guard !numbers.isEmpty, fileEnd > place.startIndex else { continue }
            let file = place[place.startIndex..<fileEnd].joined(separator: ":")
            // prose that merely contains ": error: "
            guard !file.contains(" ") || file.hasPrefix("/") else { continue }
            let text = line[range.upperBound...]
            if file == "<unknown>" {
                return diagnostic(severity, file: nil, line: nil, column: nil, text: text)
            }
            return diagnostic(
                severity, file: file, line: numbers[0], column: numbers.count > 1 ? numbers[1] : nil, text: text)
        }
        return nil
    }

    /// Splits off a trailing group tag: "... closure [#SendableClosureCaptures]".
    static func diagnostic(
        _ severity: CompilerDiagnostic.Severity, file: String?, line: Int?, column: Int?,
        text: Substring
    ) -> CompilerDiagnostic {
        var message = String(text).trimmingCharacters(in: .whitespaces)
        var group: String?
        if message.hasSuffix("]"), let open = message.range(of: " [#", options: .backwards) {
            group = String(message[open.upperBound..<message.index(before: message.endIndex)])
            message = String(message[..<open.lowerBound])
        }
        return CompilerDiagnostic(
            severity: severity, file: file, line: line, column: column, message: message, group: group)
    }
}
