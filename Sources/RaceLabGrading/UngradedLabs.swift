import Foundation
import LabKit
import RaceLabHarness

/// Grades decided without running anything: a lab the exercise checks refused, or one not
/// graded (a tampered submission, an exercise that does not compile). They need the grading
/// policy and nothing else: no lab program, no seed.
public struct UngradedLabs: Sendable {
    public let policy: GradingPolicy
    /// The package the exercise paths are shown relative to (nil: absolute paths).
    public let root: URL?

    public init(policy: GradingPolicy, root: URL? = nil) {
        self.policy = policy
        self.root = root
    }

    /// `Labs/<Folder>/Exercise.swift`, relative to the package when it is known.
    public func exerciseFile(of lab: Lab) -> String {
        let path = lab.info.folder.appendingPathComponent("Exercise.swift").path
        return root.map { PackageRoot.relative(path, to: $0) } ?? path
    }

    /// A lab scored zero without running anything (a tampered submission).
    public func notGraded(_ lab: Lab, variant: Lab.Variant, stress: StressPlan, status: LabGrade.Status, reason: String)
        -> LabGrade
    {
        let passes = Grader.passes.map { mode in
            PassGrade(
                mode: mode, runs: policy.runs(for: mode, stress: stress),
                iterationsPerRun: policy.iterations(of: lab, for: mode, stress: stress),
                status: .error, score: 0, maxScore: policy.points(for: mode), summary: "not run: \(reason)",
                problems: [], elapsedSeconds: 0)
        }
        return LabGrade(
            lab: lab.id, title: lab.info.title, bug: lab.info.bug, variant: variant.name,
            exerciseFile: exerciseFile(of: lab),
            status: status, score: 0, maxScore: policy.pointsPerLab,
            message: "\(lab.id): 0/\(Grader.points(policy.pointsPerLab)), not graded: \(reason).", passes: passes,
            stress: stress)
    }

    /// A lab whose exercise the exercise checks refused: zero, not run, and why (file, line,
    /// construct). Nothing of it ran.
    public func rejected(_ lab: Lab, variant: Lab.Variant, stress: StressPlan, violations: [PolicyViolation])
        -> LabGrade
    {
        let shown = violations.prefix(3).map(\.description).joined(separator: "; ")
        let more = violations.count > 3 ? " (+\(violations.count - 3) more)" : ""
        var grade = notGraded(
            lab, variant: variant, stress: stress, status: .rejected, reason: "rejected by the exercise checks")
        for index in grade.passes.indices {
            grade.passes[index].status = .rejected
            grade.passes[index].summary = "not run: the exercise was rejected"
        }
        grade.message =
            "\(lab.id): 0/\(Grader.points(policy.pointsPerLab)), rejected: \(shown)\(more). "
            + "A fix needs none of this; remove it and check again (racelab check \(lab.id))."
        grade.violations = violations
        return grade
    }
}
