import Foundation
import LabKit

/// What one `racelab compiler-check` found: the parts measured and the parts that could not be
/// (and why), and the stored file with what was measured in place. Its JSON is the command's
/// `--json`: the results and the parts not checked.
public struct CompilerCheckOutcome: Encodable, Sendable {
    /// A part that could not be measured (no module to check against, code that does not compile
    /// even in Swift 5 mode).
    public struct Unchecked: Codable, Sendable, Equatable {
        public let lab: String
        public let part: LabPart
        public let reason: String
    }

    public var measured: [CompilerCheckResult] = []
    public var unchecked: [Unchecked] = []
    /// `stored` with each measured result in place (`CompilerFile.replacing`).
    public var file: CompilerFile

    /// `results`: `CompilerChecker.check`'s, one for each of `parts`, in their order.
    public init(
        parts: [LabModuleSources], results: [Result<CompilerCheckResult, CompilerVerdict.Unjudged>],
        stored: CompilerFile
    ) {
        file = stored
        for (sources, result) in zip(parts, results) {
            switch result {
            case .success(let result):
                measured.append(result)
                file = file.replacing(result)
            case .failure(let problem):
                unchecked.append(Unchecked(lab: sources.lab, part: sources.part, reason: problem.description))
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case measured = "results"
        case unchecked
    }
}
