import CRaceLabSupport

/// Where one run's story spent its time, as the child measured it (`racelab run --profile`): the
/// story's span on the monotonic clock, which the parent shares (it tells the start and the end
/// from it), and what the harness's own looks, waits, holds and sleeps took inside it
/// (SpentTime.c). Always measured: a relaxed add each, beside work that costs far more.
public struct StoryProfile: Codable, Sendable, Equatable {
    /// The driver's start and end, in nanoseconds of the monotonic clock.
    public var beganAtNanoseconds: Int64 = 0
    public var endedAtNanoseconds: Int64 = 0
    /// What the harness's own looks, waits, holds and sleeps took inside the story.
    public var harness = HarnessTime()

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
            profile.harness.quietSeconds = seconds(RL_SPENT_QUIET_LOOKS)
            profile.harness.quietLooks = count(RL_SPENT_QUIET_LOOKS)
            profile.harness.waitSeconds = seconds(RL_SPENT_STORY_WAITS)
            profile.harness.waits = count(RL_SPENT_STORY_WAITS)
            profile.harness.storyHoldSeconds = seconds(RL_SPENT_STORY_HOLDS)
            profile.harness.threadHoldSeconds = seconds(RL_SPENT_THREAD_HOLDS)
            profile.harness.checkpointPauseSeconds = seconds(RL_SPENT_CHECKPOINT_PAUSES)
            profile.harness.checkpointSleepSeconds = seconds(RL_SPENT_CHECKPOINT_SLEEPS)
            profile.harness.preemptionSleepSeconds = seconds(RL_SPENT_PREEMPTION_SLEEPS)
            profile.harness.preemptions = Int(rl_preemption_signals_sent() - signals)
            return profile
        }
    }
}

/// In JSON, `harness`'s figures sit beside the profile's own (`HarnessTime` says why).
extension StoryProfile {
    enum CodingKeys: String, CodingKey {
        case beganAtNanoseconds, endedAtNanoseconds
    }

    public init(from decoder: Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        beganAtNanoseconds = try values.decode(Int64.self, forKey: .beganAtNanoseconds)
        endedAtNanoseconds = try values.decode(Int64.self, forKey: .endedAtNanoseconds)
        harness = try HarnessTime(from: decoder)
    }

    public func encode(to encoder: Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(beganAtNanoseconds, forKey: .beganAtNanoseconds)
        try values.encode(endedAtNanoseconds, forKey: .endedAtNanoseconds)
        try harness.encode(to: encoder)
    }
}
