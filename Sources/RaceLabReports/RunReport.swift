import CompilerCheck
import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// Everything one `racelab run` found: written by `--json`, read back by `racelab report`.
public struct RunReport: Codable, Sendable {
    public var command: String
    public var seed: UInt64
    public var runsPerVariant: Int
    public var elapsedSeconds: Double
    public var allExpectationsMet: Bool
    public var outcomes: [VariantOutcome]
    /// Lab id to the lesson file, for links.
    public var lessons: [String: String]
    /// What Swift 6 language mode says of each lab's code (Grading/compiler.json, as current for
    /// the sources run); nil in a report saved before the column existed.
    public var compiler: [CompilerFinding]?

    public init(
        command: String, seed: UInt64, runsPerVariant: Int, elapsedSeconds: Double, outcomes: [VariantOutcome],
        lessons: [String: String], compiler: [CompilerFinding]? = nil
    ) {
        self.command = command
        self.seed = seed
        self.runsPerVariant = runsPerVariant
        self.elapsedSeconds = elapsedSeconds
        self.allExpectationsMet = outcomes.allSatisfy(\.met)
        self.outcomes = outcomes
        self.lessons = lessons
        self.compiler = compiler
    }
}
