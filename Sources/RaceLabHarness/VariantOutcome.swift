import LabKit

/// All runs of one lab variant in one mode, and whether they met the expectation.
public struct VariantOutcome: Codable, Sendable {
    public var lab: String
    public var variant: String
    public var kind: VariantKind
    public var mode: RunMode
    public var expectation: Expectation
    public var runs: [RunVerdict]
    /// `.swift6` for a lab's Swift 6 fix; nil (Swift 5 mode) for every other variant.
    public var languageMode: LanguageMode?

    public init(
        lab: String, variant: String, kind: VariantKind, mode: RunMode, runs: [RunVerdict],
        languageMode: LanguageMode = .swift5
    ) {
        self.lab = lab
        self.variant = variant
        self.kind = kind
        self.languageMode = languageMode == .swift5 ? nil : languageMode
        self.mode = mode
        self.expectation = kind.expectation
        self.runs = runs
    }

    public var detectedRuns: Int { runs.filter { $0.detected && $0.harnessError == nil }.count }
    public var cleanRuns: Int { runs.filter { !$0.detected && $0.harnessError == nil }.count }
    public var harnessErrors: Int { runs.filter { $0.harnessError != nil }.count }

    /// How many runs each detector fired in (the outcome table's columns).
    public func count(_ detector: Detector) -> Int { runs.filter { $0.fired(detector) }.count }

    /// Broken: every run detected. Fixed and exercise: every run clean. A harness error never meets.
    public var met: Bool {
        guard harnessErrors == 0, !runs.isEmpty else { return false }
        return expectation == .detected ? detectedRuns == runs.count : cleanRuns == runs.count
    }

    /// The runs that went against the expectation (or could not be judged).
    public var offendingRuns: [RunVerdict] {
        runs.filter { $0.harnessError != nil || (expectation == .detected ? !$0.detected : $0.detected) }
    }
}
