import CRaceLabSupport
import Foundation
import RaceLabGrading
import RaceLabHarness

/// `racelab policy`'s declaration.
enum PolicyCommand {
    static let markdown = Flag("markdown", "the rules as a Markdown table")
    static let isolation = Flag("isolation", "only how children are isolated on this machine (measured)")
    static let spec = CommandSpec(
        name: "policy", summary: "what an exercise may not contain, and why; how children are isolated here",
        options: [markdown, isolation])
}

/// `racelab doctor`'s declaration.
enum DoctorCommand {
    static let spec = CommandSpec(name: "doctor", summary: "what this machine can check: the grader's checks, or fewer")
}

/// The commands about this machine: policy (what an exercise may contain, how children are
/// isolated here) and doctor (what this machine can check).
extension RaceLabCommandLine {
    func policy(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let markdown = arguments[PolicyCommand.markdown]
        let isolation = arguments[PolicyCommand.isolation]
        if markdown && isolation {
            throw UsageError("policy takes --markdown or --isolation, not both")
        }
        if markdown {
            print(ExercisePolicy.markdownTable)
        } else if isolation {
            print("racelab: on this machine, " + ChildIsolation.probe(executable: childProgram).summary)
        } else {
            for rule in ExercisePolicy.rules {
                print("\(rule.id) (\(rule.check.rawValue)): \(rule.construct)\n  \(rule.why)")
            }
            print("\nOn this machine: " + ChildIsolation.probe(executable: childProgram).summary)
        }
        return 0
    }

    /// What this machine can check, beside what the grader checks.
    func doctor(_ arguments: ParsedArguments) -> Int32 {
        let checks = PlatformChecks.here
        print("racelab doctor: this machine's checks (the grader runs on Linux and has them all)")
        print(
            "  \(rl_tsan_enabled() != 0 ? "yes" : "no ")  ThreadSanitizer built in\(rl_tsan_enabled() != 0 ? "" : ": " + HarnessProblem.tsanAdvice)"
        )
        for line in checks.lines { print(line) }
        print("  isolation: " + ChildIsolation.probe(executable: childProgram).summary)
        if let note = checks.note {
            print(note)
        } else {
            print("Every check the grader makes runs here: a PASS here is the grader's PASS.")
        }
        return rl_tsan_enabled() != 0 ? 0 : 1
    }
}
