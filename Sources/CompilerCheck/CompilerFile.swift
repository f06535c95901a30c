import Foundation
import LabKit

/// `Grading/compiler.json`: what `racelab compiler-check` measured, committed with the package so
/// that `racelab run`, `list` and the HTML report can show it without compiling anything.
public struct CompilerFile: Codable, Sendable, Equatable {
    public static let relativePath = "Grading/compiler.json"
    public var results: [CompilerCheckResult]

    public init(results: [CompilerCheckResult]) {
        let order = LabModuleSources.parts
        self.results = results.sorted {
            ($0.lab, order.firstIndex(of: $0.part) ?? order.count) < (
                $1.lab, order.firstIndex(of: $1.part) ?? order.count
            )
        }
    }

    /// nil when the file is missing or not this format.
    public static func read(packageAt root: URL) -> CompilerFile? {
        guard let data = try? Data(contentsOf: root.appendingPathComponent(relativePath)) else { return nil }
        return try? JSONDecoder().decode(CompilerFile.self, from: data)
    }

    public func write(packageAt root: URL) throws {
        let url = root.appendingPathComponent(Self.relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(self) + Data("\n".utf8)).write(to: url, options: .atomic)
    }

    /// This file without the reference fixes' results, for a student kit (which ships without
    /// the fixes, and so without what the compiler said of them).
    public var withoutSolutions: CompilerFile {
        CompilerFile(results: results.filter { $0.part != .fixed && $0.part != .swift6 })
    }

    /// The stored result for `lab`'s `part`, whatever its sources.
    public func result(lab: String, part: LabPart) -> CompilerCheckResult? {
        results.first { $0.lab == lab && $0.part == part }
    }

    /// This file with `result` added, or in place of the one for the same lab and part. A result
    /// that says the same as the stored one keeps the stored one (and its date): measuring again
    /// changes the committed file only when something changed.
    public func replacing(_ result: CompilerCheckResult) -> CompilerFile {
        if let stored = self.result(lab: result.lab, part: result.part), stored.saysTheSame(as: result) { return self }
        return CompilerFile(results: results.filter { !($0.lab == result.lab && $0.part == result.part) } + [result])
    }
}
