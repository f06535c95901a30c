import Foundation
import LabKit

/// What Swift 6 language mode said about one part of a lab (its broken code, exercise or fixes),
/// measured by `racelab compiler-check` and kept in Grading/compiler.json.
public struct CompilerCheckResult: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        /// Swift 6 mode refuses to compile it: the bug (or the code around it) is stopped before
        /// it can run.
        case rejected
        /// It compiles, with warnings Swift 5 mode did not give.
        case warns
        /// It compiles as it is.
        case accepted
    }

    public var lab: String
    public var part: LabPart
    /// The files compiled, as the package names them ("Labs/ListAdder/Broken.swift").
    public var files: [String]
    /// `LabModuleSources.digest` when measured: the result stands while it is unchanged.
    public var sourceDigest: String
    /// swiftc's version line.
    public var compiler: String
    public var measuredAt: String
    public var status: Status
    public var errors: Int
    /// Warnings in Swift 6 mode that Swift 5 mode did not give for the same code.
    public var newWarnings: Int
    /// The errors, then those warnings, each by file and line (at most `keptDiagnostics`), with
    /// paths relative to the package.
    public var diagnostics: [CompilerDiagnostic]
    /// Broken part only: the errors Swift 6 mode gives in Scenario.swift when it is compiled with
    /// Broken*.swift as one module, as in the build (at most `keptDiagnostics`). The scenario
    /// is the rest of the app: in some labs it is the code that calls the variant from several
    /// threads. nil for the other parts (they compile against the built lab module).
    public var scenarioErrors: [CompilerDiagnostic]?

    public static let keptDiagnostics = 20

    public init(
        lab: String, part: LabPart, files: [String], sourceDigest: String, compiler: String, measuredAt: String,
        status: Status, errors: Int, newWarnings: Int, diagnostics: [CompilerDiagnostic]
    ) {
        self.lab = lab
        self.part = part
        self.files = files
        self.sourceDigest = sourceDigest
        self.compiler = compiler
        self.measuredAt = measuredAt
        self.status = status
        self.errors = errors
        self.newWarnings = newWarnings
        self.diagnostics = diagnostics
    }

    /// "Swift 6.3.1" out of swiftc's version line (the whole line if it reads otherwise).
    public var compilerName: String {
        guard let range = compiler.range(of: #"Swift version [0-9.]+"#, options: .regularExpression) else {
            return compiler
        }
        return "Swift " + compiler[range].dropFirst("Swift version ".count)
    }

    /// Equal but for when it was measured.
    public func saysTheSame(as other: CompilerCheckResult) -> Bool {
        var copy = other
        copy.measuredAt = measuredAt
        return copy == self
    }

    /// The diagnostic a reader should see first: the first error, else the first new warning.
    public var first: CompilerDiagnostic? { diagnostics.first }

    /// "rejected, 2 errors: Broken.swift:50: capture of 'self' ...", "accepted: Swift 6 compiles it; ...".
    public var summary: String {
        switch status {
        case .rejected:
            let count = errors == 1 ? "1 error" : "\(errors) errors"
            return "rejected, \(count)" + (first.map { ": \($0.summary)" } ?? "")
        case .warns:
            let count = newWarnings == 1 ? "1 warning" : "\(newWarnings) warnings"
            return "compiles with \(count)" + (first.map { ": \($0.summary)" } ?? "")
        case .accepted:
            return "accepted: Swift 6 compiles it"
        }
    }

    /// The scenario's first error about sharing between threads ("capture of 'counter' with
    /// non-Sendable type ... in a '@Sendable' closure"), passing over the global and static
    /// state errors (`MutableGlobalVariable`: the variant registry and the scenario's constants,
    /// harness state that is not the lab's). nil when there is none.
    public var scenarioSharingError: CompilerDiagnostic? {
        scenarioErrors?.first { $0.group != "MutableGlobalVariable" }
    }

    /// "its scenario in Swift 6 mode: Scenario.swift:56: capture of 'counter' ..." when the
    /// scenario has such an error.
    public var scenarioNote: String? {
        scenarioSharingError.map { "its scenario in Swift 6 mode: \($0.summary)" }
    }
}
