import LabKit

/// Where the time of one child run went, or of several added up (`racelab run --profile`): the
/// parent measures the wall and CPU time, the start (until the story began) and the end (from
/// its end until the child was reaped); the child measures the story and what the harness's own
/// looks, waits, holds and sleeps took inside it (`StoryProfile`). Carried beside a verdict,
/// never part of one.
public struct RunProfile: Codable, Sendable, Equatable {
    /// Child processes added up (an explore run split into shards counts one per shard).
    public var children = 0
    /// Of them, those that sent no figures of their story (one that crashed or hung before its
    /// result): their time from the first heartbeat until they were reaped counts as story.
    public var childrenWithoutStory = 0
    /// The child's elapsed time, as the parent measured it.
    public var wallSeconds = 0.0
    /// User and system time of the child's processes (0 for a child that was not reaped here).
    public var cpuSeconds = 0.0
    /// From the spawn until the story began: process start, TSan's set-up, the lab catalog.
    public var startSeconds = 0.0
    /// The story: every iteration, the checks between them included.
    public var storySeconds = 0.0
    /// From the story's end until the child was reaped: the result, the exit, TSan's at-exit work.
    public var endSeconds = 0.0
    /// Inside the story: the harness's own looks, waits, holds and sleeps (the children's, added up).
    public var harness = HarnessTime()

    public init() {}

    /// The story's time on the main thread in neither quiet looks nor waits: the lab's own work
    /// and the story's actions.
    public var otherSeconds: Double { storySeconds - harness.quietSeconds - harness.waitSeconds }

    /// One child's profile; nil for a child that never started.
    public init?(_ child: ChildOutcome) {
        if case .failedToStart = child.ending { return nil }
        let clock = child.clock
        let spawned = clock.spawnedAtNanoseconds
        let reaped = clock.reapedAtNanoseconds ?? spawned + Int64(child.elapsedSeconds * 1e9)
        func seconds(_ from: Int64, _ to: Int64) -> Double { Double(to - from) / 1e9 }
        children = 1
        wallSeconds = child.elapsedSeconds
        cpuSeconds = clock.cpuSeconds ?? 0
        // The child's stamps are believed only inside the span the parent saw (a result written
        // by lab code could say anything; it changes no verdict, and no profile either).
        if let story = child.result?.profile, spawned <= story.beganAtNanoseconds,
            story.beganAtNanoseconds <= story.endedAtNanoseconds, story.endedAtNanoseconds <= reaped
        {
            startSeconds = seconds(spawned, story.beganAtNanoseconds)
            storySeconds = story.storySeconds
            endSeconds = seconds(story.endedAtNanoseconds, reaped)
            harness = story.harness
        } else {
            childrenWithoutStory = 1
            let firstBeat = min(max(clock.firstHeartbeatAtNanoseconds ?? reaped, spawned), reaped)
            startSeconds = seconds(spawned, firstBeat)
            storySeconds = seconds(firstBeat, reaped)
        }
    }

    /// Profiles added up, field by field.
    public static func + (left: RunProfile, right: RunProfile) -> RunProfile {
        var sum = left
        sum.children += right.children
        sum.childrenWithoutStory += right.childrenWithoutStory
        sum.wallSeconds += right.wallSeconds
        sum.cpuSeconds += right.cpuSeconds
        sum.startSeconds += right.startSeconds
        sum.storySeconds += right.storySeconds
        sum.endSeconds += right.endSeconds
        sum.harness = sum.harness + right.harness
        return sum
    }

    /// `profiles` added up; nil when there are none.
    public static func sum(_ profiles: [RunProfile]) -> RunProfile? {
        profiles.isEmpty ? nil : profiles.reduce(RunProfile(), +)
    }
}

/// In JSON, `harness`'s figures sit beside the profile's own (`HarnessTime` says why).
extension RunProfile {
    enum CodingKeys: String, CodingKey {
        case children, childrenWithoutStory, wallSeconds, cpuSeconds, startSeconds, storySeconds, endSeconds
    }

    public init(from decoder: Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        children = try values.decode(Int.self, forKey: .children)
        childrenWithoutStory = try values.decode(Int.self, forKey: .childrenWithoutStory)
        wallSeconds = try values.decode(Double.self, forKey: .wallSeconds)
        cpuSeconds = try values.decode(Double.self, forKey: .cpuSeconds)
        startSeconds = try values.decode(Double.self, forKey: .startSeconds)
        storySeconds = try values.decode(Double.self, forKey: .storySeconds)
        endSeconds = try values.decode(Double.self, forKey: .endSeconds)
        harness = try HarnessTime(from: decoder)
    }

    public func encode(to encoder: Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(children, forKey: .children)
        try values.encode(childrenWithoutStory, forKey: .childrenWithoutStory)
        try values.encode(wallSeconds, forKey: .wallSeconds)
        try values.encode(cpuSeconds, forKey: .cpuSeconds)
        try values.encode(startSeconds, forKey: .startSeconds)
        try values.encode(storySeconds, forKey: .storySeconds)
        try values.encode(endSeconds, forKey: .endSeconds)
        try harness.encode(to: encoder)
    }
}
