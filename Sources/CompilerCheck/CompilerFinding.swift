import Foundation
import LabKit

/// What the reports show for one part of a lab: the stored Swift 6 result while the sources are
/// those it was measured on, and otherwise "not measured" with the reason. Never a guess.
public struct CompilerFinding: Codable, Sendable, Equatable {
    public var lab: String
    public var part: LabPart
    /// nil: not measured for the sources as they are now.
    public var result: CompilerCheckResult?
    /// Why there is no result ("sources changed since it was measured").
    public var notMeasured: String?

    public init(lab: String, part: LabPart, result: CompilerCheckResult?, notMeasured: String? = nil) {
        self.lab = lab
        self.part = part
        self.result = result
        self.notMeasured = result == nil ? (notMeasured ?? "never measured") : nil
    }

    /// The command that measures it.
    public static let command = "racelab compiler-check"

    /// The table cell: "rejected", "warns", "accepted", "not measured".
    public var cell: String { result?.status.rawValue ?? "not measured" }

    /// One line: the result's summary, or "not measured (racelab compiler-check): why".
    public var detail: String {
        if let result { return result.summary }
        return "not measured (\(Self.command)): \(notMeasured ?? "never measured")"
    }

    /// The findings for every part each lab has, from `file` (nil: no Grading/compiler.json).
    public static func current(for labs: [Lab], in file: CompilerFile?) -> [CompilerFinding] {
        labs.flatMap { lab in
            LabModuleSources.parts.compactMap { part -> CompilerFinding? in
                guard let sources = LabModuleSources(lab, part: part) else { return nil }
                return current(sources, in: file)
            }
        }
    }

    public static func current(_ sources: LabModuleSources, in file: CompilerFile?) -> CompilerFinding {
        guard let file else {
            return CompilerFinding(
                lab: sources.lab, part: sources.part, result: nil, notMeasured: "no \(CompilerFile.relativePath)")
        }
        guard let stored = file.result(lab: sources.lab, part: sources.part) else {
            return CompilerFinding(lab: sources.lab, part: sources.part, result: nil, notMeasured: "never measured")
        }
        guard let digest = sources.digest, digest == stored.sourceDigest else {
            let names = ["Scenario.swift"] + sources.files
            let files = names.dropLast().joined(separator: ", ") + " or " + names.last!
            return CompilerFinding(
                lab: sources.lab, part: sources.part, result: nil,
                notMeasured: "\(files) changed since it was measured")
        }
        return CompilerFinding(lab: sources.lab, part: sources.part, result: stored)
    }
}

extension Array where Element == CompilerFinding {
    /// The finding for a row of the outcome table (a corpus variant has none).
    public func finding(lab: String, part: LabPart?) -> CompilerFinding? {
        guard let part else { return nil }
        return first { $0.lab == lab && $0.part == part }
    }
}
