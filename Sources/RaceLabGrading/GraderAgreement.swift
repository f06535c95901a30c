import Foundation
import LabKit
import RaceLabHarness

/// `racelab bench agreement`: does `racelab check` tell a student what `racelab grade` will give
/// them? Every corpus fix is judged both ways, and every pass/fail disagreement is listed (the
/// goal is none).
///
/// The two commands share one code path: the exercise checks (a rejection is the same both
/// ways), the stress plan from the stored calibration, then `Grader.grade`. What differs is
/// how the grader is set up (`Grader.forCheck`, `Grader.forGrade`, used by the commands
/// themselves): the seed (each picks its own), and how many children run at once: check runs
/// all of one lab's children together, grade runs `ChildPool.defaultJobs` at a time across
/// every exercise it grades (here: all of one lab's corpus fixes in one `Grader.grade` call, as
/// `Grader.report` does with a student's labs). So a disagreement is seed or load, never code.
public struct GraderAgreement {
    /// The grade side's seed is the check side's + this (check picks its own seeds from 1 to
    /// 999,999, so this is one it never picks, and no child's seed is shared between the sides).
    public static let gradeSeedOffset: UInt64 = 1_000_000

    public struct Side: Codable, Sendable, Equatable {
        public var seed: UInt64
        /// Full marks.
        public var passed: Bool
        public var score: Double
        public var maxScore: Double
        public var status: LabGrade.Status
        public var message: String

        init(_ grade: LabGrade, seed: UInt64) {
            self.seed = seed
            passed = grade.score >= grade.maxScore
            score = grade.score
            maxScore = grade.maxScore
            status = grade.status
            message = grade.message
        }

        public init(
            seed: UInt64, passed: Bool, score: Double, maxScore: Double, status: LabGrade.Status, message: String
        ) {
            self.seed = seed
            self.passed = passed
            self.score = score
            self.maxScore = maxScore
            self.status = status
            self.message = message
        }

        var text: String {
            "\(passed ? "PASS" : "FAIL") \(Grader.points(score))/\(Grader.points(maxScore)) (\(status.rawValue), seed \(seed))"
        }
    }

    public struct Row: Codable, Sendable, Equatable {
        public var lab: String
        public var variant: String
        public var kind: VariantKind
        public var about: String
        public var check: Side
        public var grade: Side
        /// Check's time for this fix, plus an equal share of grade's time for its lab's fixes.
        public var seconds: Double
        public var agree: Bool { check.passed == grade.passed }
    }

    public var check: Grader
    public var grade: Grader
    /// The corpus (its files and the exercise checks on them).
    public var corpus: CorpusBenchmark

    public init(check: Grader, grade: Grader, corpus: CorpusBenchmark) {
        self.check = check
        self.grade = grade
        self.corpus = corpus
    }

    /// Every corpus fix of `labs`, first as check judges it (one fix at a time, as a student
    /// checks one lab), then, per lab, all of them as grade judges a submission.
    public func run(_ labs: [Lab], onProgress: @escaping @Sendable (String) -> Void = { _ in }) -> [Row] {
        var rows: [Row] = []
        for lab in labs {
            // Both commands take the stress plan from the stored calibration (measured now if
            // there is none, as both do; here once per lab, for both sides).
            var measured: StressPlan?
            func plan() -> StressPlan {
                if let measured { return measured }
                let (made, _) = check.stressPlan(
                    for: lab, calibrations: corpus.calibrations, measureIfMissing: true, onProgress: onProgress)
                measured = made
                return made
            }
            var checked: [(variant: Lab.Variant, about: String, grade: LabGrade, seconds: Double)] = []
            var toGrade: [(Lab, Lab.Variant, StressPlan)] = []
            var graded: [String: LabGrade] = [:]
            for variant in lab.variants where variant.kind.isCorpus {
                let started = Date()
                let (text, violations) = corpus.checked(lab, variant)
                let result: LabGrade
                if violations.isEmpty {
                    result = check.grade(lab, variant: variant, stress: plan()) {
                        onProgress("\(lab.id) \(variant.name), as check: \($0)")
                    }
                    toGrade.append((lab, variant, plan()))
                } else {
                    let rejectedPlan = StressPlan.make(
                        lab, calibration: corpus.calibrations?.current(for: lab), policy: check.policy)
                    result = check.rejected(lab, variant: variant, stress: rejectedPlan, violations: violations)
                    graded[variant.name] = grade.rejected(
                        lab, variant: variant, stress: rejectedPlan, violations: violations)
                }
                checked.append((variant, CorpusBenchmark.about(text), result, Date().timeIntervalSince(started)))
            }
            let started = Date()
            for (item, result) in zip(toGrade, grade.grade(toGrade) { onProgress("\(lab.id), as grade: \($0)") }) {
                graded[item.1.name] = result
            }
            // Grade judged the lab's fixes together: each row gets an equal share of that time.
            let share = Date().timeIntervalSince(started) / Double(max(1, toGrade.count))
            for fix in checked {
                guard let other = graded[fix.variant.name] else { continue }
                let ran = toGrade.contains { $0.1.name == fix.variant.name }
                rows.append(
                    Row(
                        lab: lab.id, variant: fix.variant.name, kind: fix.variant.kind, about: fix.about,
                        check: Side(fix.grade, seed: check.seed), grade: Side(other, seed: grade.seed),
                        seconds: fix.seconds + (ran ? share : 0)))
            }
        }
        return rows
    }

    /// Per lab: fixes, how many pass as check and as grade judge them, disagreements; then
    /// every disagreement with both verdicts.
    public static func table(_ rows: [Row], seconds: Double) -> String {
        let labs = rows.map(\.lab).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let width = max(18, (labs.map(\.count).max() ?? 0) + 2)
        let pad = CorpusBenchmark.pad
        func line(_ name: String, _ mine: [Row]) -> String {
            pad(name, width) + pad("\(mine.count)", 7) + pad("\(mine.filter(\.check.passed).count)", 12)
                + pad("\(mine.filter(\.grade.passed).count)", 12) + pad("\(mine.filter { !$0.agree }.count)", 10)
                + String(format: "%.0f", mine.map(\.seconds).reduce(0, +))
        }
        var out = [pad("LAB", width) + "FIXES  CHECK PASS  GRADE PASS  DISAGREE  SECONDS"]
        for lab in labs { out.append(line(lab, rows.filter { $0.lab == lab })) }
        out.append(line("TOTAL", rows))
        let disagreements = rows.filter { !$0.agree }
        out.append("")
        out.append("Disagreements: \(disagreements.count) (goal 0). Wall time: \(String(format: "%.0f", seconds)) s.")
        for row in disagreements {
            out.append("")
            out.append(
                "DISAGREE \(row.lab) \(row.variant) (\(row.kind.rawValue)\(row.about.isEmpty ? "" : ": \(row.about)"))")
            out.append("  check: \(row.check.text)")
            out.append("  grade: \(row.grade.text)")
            out.append(
                "  \(row.check.passed ? "grade" : "check") said: \(row.check.passed ? row.grade.message : row.check.message)"
            )
        }
        return out.joined(separator: "\n")
    }
}
