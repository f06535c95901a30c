import CRaceLabSupport

/// Where one run's story spent its time, as the child measured it (`racelab run --profile`): the
/// story's span on the monotonic clock, which the parent shares (it tells the start and the end
/// from it), and what the harness's own looks, waits, holds and sleeps took inside it
/// (SpentTime.c). Always measured: a relaxed add each, beside work that costs far more.
public struct StoryProfile: Codable, Sendable, Equatable {
    /// The driver's start and end, in nanoseconds of the monotonic clock.
    public var beganAtNanoseconds: Int64 = 0
    public var endedAtNanoseconds: Int64 = 0
    /// The main thread's time in quiet looks (`LabQuiet`), and how many it took.
    public var quietSeconds = 0.0
    public var quietLooks = 0
    /// The main thread's time in the story's own waits (`StoryWait`, the outermost only), the
    /// quiet looks inside them left out (counted above), and how many.
    public var waitSeconds = 0.0
    public var waits = 0
    /// Thread-seconds lab threads spent held by the harness: the holds that wait for the story
    /// (end, strong reference, late start), `ThreadHold`'s holds, and pauses at armed checkpoints.
    public var storyHoldSeconds = 0.0
    public var threadHoldSeconds = 0.0
    public var checkpointPauseSeconds = 0.0
    /// Thread-seconds lab threads slept for the stress pass: at checkpoints (its delays), and in
    /// the preemption's handler; and the preemption signals sent.
    public var checkpointSleepSeconds = 0.0
    public var preemptionSleepSeconds = 0.0
    public var preemptions = 0

    public init() {}

    public var storySeconds: Double { Double(endedAtNanoseconds - beganAtNanoseconds) / 1e9 }
}

extension StoryProfile {
    /// The process's counters when a story began: the story's figures are what they grew by (a
    /// test runs several stories in one process).
    struct Meter {
        private static let kinds = (0..<RL_SPENT_KINDS.rawValue).map { rl_spent_kind(rawValue: $0) }
        private let began = rl_monotonic_ns()
        private let nanoseconds = Self.kinds.map(rl_spent_ns)
        private let times = Self.kinds.map(rl_spent_times)
        private let signals = rl_preemption_signals_sent()

        /// The story's figures, from its start until now.
        func profile() -> StoryProfile {
            func seconds(_ kind: rl_spent_kind) -> Double {
                Double(rl_spent_ns(kind) - nanoseconds[Int(kind.rawValue)]) / 1e9
            }
            func count(_ kind: rl_spent_kind) -> Int { Int(rl_spent_times(kind) - times[Int(kind.rawValue)]) }
            var profile = StoryProfile()
            profile.beganAtNanoseconds = began
            profile.endedAtNanoseconds = rl_monotonic_ns()
            profile.quietSeconds = seconds(RL_SPENT_QUIET_LOOKS)
            profile.quietLooks = count(RL_SPENT_QUIET_LOOKS)
            profile.waitSeconds = seconds(RL_SPENT_STORY_WAITS)
            profile.waits = count(RL_SPENT_STORY_WAITS)
            profile.storyHoldSeconds = seconds(RL_SPENT_STORY_HOLDS)
            profile.threadHoldSeconds = seconds(RL_SPENT_THREAD_HOLDS)
            profile.checkpointPauseSeconds = seconds(RL_SPENT_CHECKPOINT_PAUSES)
            profile.checkpointSleepSeconds = seconds(RL_SPENT_CHECKPOINT_SLEEPS)
            profile.preemptionSleepSeconds = seconds(RL_SPENT_PREEMPTION_SLEEPS)
            profile.preemptions = Int(rl_preemption_signals_sent() - signals)
            return profile
        }
    }
}
