import Foundation
import LabKit

/// How one part's Swift 5 and Swift 6 diagnostics become a result.
public enum CompilerVerdict {
    /// Why a check says nothing about Swift 6: the code does not compile in Swift 5 mode either
    /// (so Swift 6's errors would not be Swift 6's), or swiftc failed without a diagnostic in
    /// the part's files (a missing module, a crash).
    public struct Unjudged: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// `swift5` and `swift6`: each mode's exit status and diagnostics, for the same sources.
    /// Errors count only when Swift 5 mode compiled the code cleanly: then they are Swift 6's.
    public static func judge(
        _ sources: LabModuleSources, swift5: (status: Int32, diagnostics: [CompilerDiagnostic]),
        swift6: (status: Int32, diagnostics: [CompilerDiagnostic]), digest: String,
        compiler: String, measuredAt: String
    ) throws(Unjudged) -> CompilerCheckResult {
        let ownPaths = Set(sources.urls.map(\.standardizedFileURL.path))
        func own(_ diagnostic: CompilerDiagnostic) -> Bool {
            guard let file = diagnostic.file else { return false }
            return ownPaths.contains(URL(fileURLWithPath: file).standardizedFileURL.path)
        }
        func described(_ diagnostic: CompilerDiagnostic) -> String {
            var copy = diagnostic
            if let file = copy.file, own(copy) {
                copy.file = "Labs/\(sources.labModule)/\(URL(fileURLWithPath: file).lastPathComponent)"
            }
            return copy.summary
        }
        if let error = swift5.diagnostics.first(where: { $0.severity == .error }) {
            throw Unjudged(description: "does not compile in Swift 5 mode either: \(described(error))")
        }
        if swift5.status != 0 {
            throw Unjudged(
                description: "swiftc failed in Swift 5 mode (exit \(swift5.status)) without an error message")
        }
        let errors = swift6.diagnostics.filter { $0.severity == .error }
        if let stray = errors.first(where: { !own($0) }) {
            throw Unjudged(description: "swiftc failed outside the lab's files: \(described(stray))")
        }
        if swift6.status != 0 && errors.isEmpty {
            throw Unjudged(
                description: "swiftc failed in Swift 6 mode (exit \(swift6.status)) without an error message")
        }
        let swift5Warnings = swift5.diagnostics.filter { $0.severity == .warning }
        let newWarnings = swift6.diagnostics.filter { warning in
            warning.severity == .warning && own(warning) && !swift5Warnings.contains { $0.isSame(as: warning) }
        }
        let kept = (inReadingOrder(errors) + inReadingOrder(newWarnings)).prefix(CompilerCheckResult.keptDiagnostics)
            .map { diagnostic in
                var copy = diagnostic
                copy.file = copy.file.map { "Labs/\(sources.labModule)/\(URL(fileURLWithPath: $0).lastPathComponent)" }
                return copy
            }
        return CompilerCheckResult(
            lab: sources.lab, part: sources.part, files: sources.relativePaths, sourceDigest: digest,
            compiler: compiler,
            measuredAt: measuredAt, status: !errors.isEmpty ? .rejected : !newWarnings.isEmpty ? .warns : .accepted,
            errors: errors.count, newWarnings: newWarnings.count, diagnostics: Array(kept))
    }

    /// By file, line and column (swiftc prints SIL-stage errors after type-checking ones).
    static func inReadingOrder(_ list: [CompilerDiagnostic]) -> [CompilerDiagnostic] {
        list.enumerated().sorted {
            ($0.element.file ?? "", $0.element.line ?? 0, $0.element.column ?? 0, $0.offset)
                < ($1.element.file ?? "", $1.element.line ?? 0, $1.element.column ?? 0, $1.offset)
        }.map(\.element)
    }
}
