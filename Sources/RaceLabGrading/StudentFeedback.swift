import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// `racelab check`: one lab's grade told to the student who is working on it.
public enum StudentFeedback {
    /// `platform`: what this system can check; on one without every check (a Mac), a PASS is
    /// said to be provisional, and why.
    public static func render(
        _ grade: LabGrade, seed: UInt64, warnings: [String], hintCount: Int, platform: PlatformChecks = .here
    ) -> String {
        var out: [String] = []
        out.append("Checking \(grade.lab): \(grade.title)")
        out.append(
            "Your file: \(grade.exerciseFile). The grader's own \(passNames) passes, base seed \(seed)."
        )
        for warning in warnings { out.append("warning: \(warning)") }
        out.append("")
        if grade.status == .rejected {
            out.append("NOT RUN: your exercise holds something the grader refuses, so it was not run at all.")
            for violation in grade.violations ?? [] { out.append("  \(violation)") }
            out.append("")
            out.append(
                "REJECTED: \(Grader.points(grade.score))/\(Grader.points(grade.maxScore)). A fix needs none of the above: remove it and check again."
            )
            return out.joined(separator: "\n")
        }
        for pass in grade.passes {
            let how = pass.mode.howItTries
            if pass.status == .passed {
                out.append("\(pass.name) (\(pass.size), \(how)): passed, \(pass.summary)")
            } else {
                var lines = GradeText.passLines(pass)
                lines[0] = "\(pass.name) (\(pass.size), \(how)): \(pass.status.rawValue.uppercased()), \(pass.summary)"
                out += lines
            }
        }
        out.append("")
        let points = "\(Grader.points(grade.score))/\(Grader.points(grade.maxScore))"
        switch grade.status {
        case .passed:
            out.append(
                passingLine(
                    points: points, chance: grade.stress.chanceText, platform: platform, wentWithout: grade.wentWithout)
            )
            out.append("`racelab progress` shows every lab.")
        case .tampered:
            out.append("NOT PASSING: \(points). A run sent a result of its own making; the harness does not accept it.")
        case .rejected:
            break
        case .error:
            out.append("NOT JUDGED: \(points). The harness could not judge a run (see above); this is not a pass.")
        case .partial, .failed:
            let headline = grade.passes.lazy.compactMap { $0.problems.first?.headline }.first
            out.append(
                "NOT PASSING YET: \(points)" + (headline.map { ": \($0)." } ?? ".") + " The lab's bug: \(grade.bug).")
            if hintCount > 0 {
                out.append(
                    "Stuck? `racelab hint \(grade.lab)` shows the lesson's hints one at a time (\(hintCount) in all).")
            }
        }
        return out.joined(separator: "\n")
    }

    /// The grader's passes in words: "scripted, explore and stress".
    static var passNames: String {
        let names = Grader.passes.map(\.rawValue)
        return names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// The verdict line of a pass: plain where every check of the grader's ran; provisional
    /// where this lab's check went without some (`wentWithout`, recorded by its runs; and, on an
    /// Apple platform, the lock-order reports TSan gives no lab there), naming them: a wrong fix
    /// the grader catches only with them can pass here.
    public static func passingLine(
        points: String, chance: String, platform: PlatformChecks, wentWithout: [MissingCheck] = []
    ) -> String {
        let chanceLine = "An unfixed exercise would pass the stress pass with chance \(chance)."
        guard !platform.missing.isEmpty else { return "PASSING: \(points). \(chanceLine)" }
        var lacked = wentWithout.map(\.words)
        if !platform.locksInLibraries { lacked.append("lock-order reports for Foundation's locks") }
        guard !lacked.isEmpty else {
            return "PASSING HERE: \(points). This lab's check needed none of the checks this system lacks, so it "
                + "should be the grader's verdict too. \(chanceLine)"
        }
        let listed = lacked.count == 1 ? lacked[0] : lacked.dropLast().joined(separator: ", ") + " and " + lacked.last!
        return "PASSING HERE, PROVISIONALLY: \(points). The grader checks this lab with \(listed), which this system "
            + "lacks: the grader, on Linux, may still fail this exercise. For the grader's verdict, check it in the "
            + "project's container (docs/platforms.md)."
    }

    /// The lab's exercise files edited after `executable` was built: a check or a run now would
    /// judge the old code unless it builds first (relative paths; empty without a package).
    public static func staleExercises(of lab: Lab, root: URL?, executable: URL) -> [String] {
        guard let root else { return [] }
        let fileManager = FileManager.default
        guard let built = (try? fileManager.attributesOfItem(atPath: executable.path)[.modificationDate]) as? Date
        else { return [] }
        return StudentProgress.exerciseFiles(of: lab, root: root).filter { path in
            let modified =
                (try? fileManager.attributesOfItem(atPath: root.appendingPathComponent(path).path)[.modificationDate])
                as? Date
            return modified.map { $0 > built } ?? false
        }
    }

    /// Warnings before a check: edits outside the exercises that the grader would flag as tampering.
    public static func warnings(for lab: Lab, root: URL?, executable: URL) -> [String] {
        guard let root else { return [] }
        var warnings: [String] = []
        if let manifest = KitManifest.read(packageAt: root) {
            let findings = TamperCheck.check(root, against: manifest, checkManifestCopy: false).filter {
                TamperCheck.affectsBuild($0.path)
            }
            if !findings.isEmpty {
                warnings.append(
                    "the grader will report this kit as tampered (only exercise files may change): \(TamperCheck.summary(findings))"
                )
            }
        }
        return warnings
    }
}
