import LabKit
import RaceLabHarness

/// A part of a lab that one Swift 6 check compiles: the files of one of its modules.
public enum LabPart: String, Codable, Sendable, CaseIterable {
    case broken, exercise, fixed
    /// The lab's Swift 6 fix (FixedSwift6*.swift), already built in Swift 6 mode.
    case swift6 = "fixed-swift6"

    /// The part a row of the outcome table shows: nil for a grading-corpus fix.
    public init?(_ variant: Lab.Variant) {
        switch variant.kind {
        case .broken: self = .broken
        case .exercise: self = .exercise
        case .fixed: self = variant.languageMode == .swift6 ? .swift6 : .fixed
        case .validFix, .wrongFix: return nil
        }
    }
}

extension VariantOutcome {
    /// The lab part this row's code is (nil for a grading-corpus fix).
    public var labPart: LabPart? {
        LabPart(Lab.Variant(kind: kind, name: variant, languageMode: languageMode ?? .swift5))
    }
}
