import Synchronization

/// A check the grader makes that a run asked for and this system could not make (one without
/// RaceLab's Linux facilities: macOS, or the reduced build). Recorded where the run went without
/// it and carried in its outcome, so a PASS there can say, lab by lab, which of its checks did
/// not happen. On Linux with the facilities nothing is ever recorded.
public enum MissingCheck: String, Codable, Sendable, CaseIterable, Comparable {
    /// The stress pass ran without preemption at synchronisation points.
    case preemption
    /// A hold at a counted point (or at a result's hand-over) was asked for and not made.
    case hold
    /// The threads' ends were not held for the story: a last reference dropped off the main
    /// thread is seen only when the timing happens to show it.
    case threadEndHold = "thread-end-hold"
    /// "The app is quiet" was guessed from a clock, not asked of the kernel.
    case quietFromKernel = "quiet-from-kernel"
    /// Swift concurrency's jobs ran on its own pool, not one at a time in the seed's order.
    case jobOrder = "job-order"

    /// In a learner's words: what the grader has and this system lacks.
    public var words: String {
        switch self {
        case .preemption: "preemption in the stress pass"
        case .hold: "holds at a chosen point"
        case .threadEndHold: "holds at a thread's end"
        case .quietFromKernel: "\"the app is quiet\" asked of the kernel"
        case .jobOrder: "Swift concurrency's jobs run in an order chosen by seed"
        }
    }

    public static func < (lhs: MissingCheck, rhs: MissingCheck) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Whether this build has the facilities these checks need (Linux, not the reduced build):
    /// the one answer `PlatformChecks` and the recording here share.
    public static var facilitiesHere: Bool {
        #if os(Linux) && !RACELAB_NO_LINUX_FACILITIES
            true
        #else
            false
        #endif
    }

    private static let seen = Atomic<Int>(0)  // one bit per case

    /// Notes that the run needed `check` here and went without it (nothing where it is available).
    static func record(_ check: MissingCheck) {
        guard !facilitiesHere, let index = allCases.firstIndex(of: check) else { return }
        seen.bitwiseOr(1 << index, ordering: .relaxed)
    }

    /// The checks recorded since the last call, in order; clears them.
    static func drain() -> [MissingCheck] {
        let bits = seen.exchange(0, ordering: .relaxed)
        return allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element)
    }
}
