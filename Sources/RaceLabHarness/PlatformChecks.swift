import LabKit

/// What the harness can do on the system it runs on. The grader runs on Linux, where every check
/// is available; elsewhere (macOS) some are missing, and a run must say so rather than pass a
/// fix the grader would fail.
public struct PlatformChecks: Sendable, Equatable {
    /// Random preemption at synchronisation points and counted holds (stress pass).
    public var preemptionAndHolds: Bool
    /// Quiet asked of the kernel (what each thread waits for), not guessed from a clock.
    public var quietFromKernel: Bool
    /// The holds that wait for the story (a thread's end, a strong reference taken off main).
    public var storyHolds: Bool
    /// Children confined (namespaces, seccomp, Landlock) and their process trees followed.
    public var childConfinement: Bool
    /// ThreadSanitizer watches the locks taken inside Foundation and the system (`NSLock`,
    /// `NSCondition`): lock-order inversions and misused locks are reported. Not on Apple
    /// platforms (`TSanEnvironment.options`): a deadlock's order is then seen only when it freezes.
    public var locksInLibraries: Bool = TSanPlatform.here == .linux
    /// Every lab sees the same number of CPUs, whatever the machine (LabCPUs.c): Dispatch's pool
    /// and `concurrentPerform` are as wide as on the grader. Elsewhere they follow the machine.
    public var sameCPUCount: Bool = MissingCheck.facilitiesHere

    /// This system's.
    public static var here: PlatformChecks {
        let has = MissingCheck.facilitiesHere
        return PlatformChecks(preemptionAndHolds: has, quietFromKernel: has, storyHolds: has, childConfinement: has)
    }

    /// The checks missing here, in words; empty when every check is available.
    public var missing: [String] {
        var missing: [String] = []
        if !preemptionAndHolds { missing.append("no preemption or holds in the stress pass") }
        if !quietFromKernel { missing.append("'quiet' guessed from a clock") }
        if !storyHolds { missing.append("no holds at a thread's end") }
        if !childConfinement { missing.append("children not confined") }
        if !locksInLibraries { missing.append("no lock-order reports for Foundation's locks") }
        if !sameCPUCount {
            missing.append("Dispatch as wide as this machine, not the grader's \(TSanEnvironment.labCPUs) CPUs")
        }
        return missing
    }

    /// `racelab doctor`: each check, and whether this system has it.
    public var lines: [String] {
        func line(_ has: Bool, _ what: String) -> String { "  \(has ? "yes" : "no ")  \(what)" }
        return [
            line(preemptionAndHolds, "stress pass: random preemption at synchronisation points, holds counted exactly"),
            line(
                quietFromKernel, "\"the app is quiet\" asked of the kernel (what each thread waits for), not of a clock"
            ),
            line(storyHolds, "holds that wait for the story (a thread's end; a strong reference taken off main)"),
            line(childConfinement, "children confined (namespaces, seccomp, Landlock) and their processes followed"),
            line(
                locksInLibraries,
                "ThreadSanitizer sees the locks inside Foundation (lock-order inversions, misused locks)"),
            line(
                sameCPUCount,
                "every lab sees \(TSanEnvironment.labCPUs) CPUs, as on the grader (Dispatch's pool and concurrentPerform as wide)"
            )
        ]
    }

    /// A line for the top of a run's or a check's output; nil when every check is available.
    public var note: String? {
        guard !missing.isEmpty else { return nil }
        return "note: this system runs a reduced check (\(missing.joined(separator: "; "))): its verdicts are not the "
            + "grader's, which runs on Linux (a wrong fix can pass here, and a right one fail). For the grader's exact check, "
            + "open the project in its container (docs/platforms.md)."
    }
}
