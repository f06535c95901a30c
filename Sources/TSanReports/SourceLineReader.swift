import Foundation

/// Reads the source lines that explanations quote.
public enum SourceLineReader {
    /// Source lines for the explanation, read once per file; only ordinary files of a sane size
    /// (a log may name any path).
    public static func lookup() -> TSanExplainer.SourceLookup {
        var files: [String: [Substring]] = [:]
        return { path, line in
            if files[path] == nil {
                let attributes = try? FileManager.default.attributesOfItem(atPath: path)
                let readable =
                    attributes?[.type] as? FileAttributeType == .typeRegular
                    && (attributes?[.size] as? Int ?? .max) < 4_000_000
                let text = readable ? (try? String(contentsOfFile: path, encoding: .utf8)) : nil
                files[path] = text?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
            }
            guard let lines = files[path], line >= 1, line <= lines.count else { return nil }
            return String(lines[line - 1])
        }
    }
}
