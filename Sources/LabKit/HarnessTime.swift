/// What the harness's own looks, waits, holds and sleeps took inside a story (SpentTime.c): one
/// story's, as its child measured it (`StoryProfile`), or several added up (`RunProfile`).
///
/// In JSON its fields sit beside those of the profile that holds it, not in an object of their own
/// (`encode(to:)` and `init(from:)` of both profiles): the child's result line and
/// `racelab run --json` read as they did when each profile had these fields itself.
public struct HarnessTime: Codable, Sendable, Equatable {
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

    public var heldThreadSeconds: Double { storyHoldSeconds + threadHoldSeconds + checkpointPauseSeconds }
    public var sleptThreadSeconds: Double { checkpointSleepSeconds + preemptionSleepSeconds }

    /// Two stories' (or sums') figures added up, field by field.
    public static func + (left: HarnessTime, right: HarnessTime) -> HarnessTime {
        var sum = left
        sum.quietSeconds += right.quietSeconds
        sum.quietLooks += right.quietLooks
        sum.waitSeconds += right.waitSeconds
        sum.waits += right.waits
        sum.storyHoldSeconds += right.storyHoldSeconds
        sum.threadHoldSeconds += right.threadHoldSeconds
        sum.checkpointPauseSeconds += right.checkpointPauseSeconds
        sum.checkpointSleepSeconds += right.checkpointSleepSeconds
        sum.preemptionSleepSeconds += right.preemptionSleepSeconds
        sum.preemptions += right.preemptions
        return sum
    }
}
