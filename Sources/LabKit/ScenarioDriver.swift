import CRaceLabSupport
import Foundation

/// One share of an exploration: the points at index, index + count, index + 2 count...
public struct ExplorationShard: Codable, Sendable, Equatable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// "2/4" (the third of four shares).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    public func includes(_ position: Int) -> Bool { position % count == index }
}

/// What to run: one lab variant, in one mode, for some iterations.
public struct ScenarioPlan: Codable, Sendable, Equatable {
    public var lab: String
    public var variant: String
    public var mode: RunMode
    public var iterations: Int
    public var seed: UInt64
    /// Stop after the first iteration in which anything was detected (saves time on broken variants).
    public var stopAtFirstDetection: Bool
    /// Explore mode: only this point (a reproduce command), instead of a survey and every point.
    public var point: ExplorationPoint?
    /// Explore mode: one share of the points, so several children explore side by side. Each
    /// surveys the story, then explores the points whose place in the survey's list is
    /// `index` modulo `count` (0-based).
    public var shard: ExplorationShard?
    /// The mode's story with nothing armed (`PlainPass`): what a plain test would see.
    public var plain: Bool?
    /// Stress mode: every story ordered this way (`racelab run --schedule`); nil: the stories
    /// take turns, pauses first (`StressPass`).
    public var schedule: StressSchedule?

    public init(
        lab: String, variant: String, mode: RunMode, iterations: Int, seed: UInt64, stopAtFirstDetection: Bool = true,
        point: ExplorationPoint? = nil
    ) {
        self.lab = lab
        self.variant = variant
        self.mode = mode
        self.iterations = iterations
        self.seed = seed
        self.stopAtFirstDetection = stopAtFirstDetection
        self.point = point
    }
}

/// What the scenario itself saw over all iterations (TSan's own text is parsed separately).
public struct ScenarioOutcome: Codable, Sendable, Equatable {
    public var iterationsRun = 0
    public var failures: [InvariantFailure] = []
    public var firstFailureIteration: Int?
    /// TSan reports counted in-process by the `__tsan_on_report` hook.
    public var tsanReports = 0
    public var firstTSanIteration: Int?
    /// Seconds from the start to the end of the first iteration that detected anything.
    public var firstDetectionSeconds: Double?
    public var elapsedSeconds = 0.0
    public var notes: [String] = []
    public var metrics: [String: Double] = [:]
    /// Whether the process running the scenario had ThreadSanitizer.
    public var tsanEnabled = false
    /// Explore mode: the points explored, in order ("1:3"), and the one of the first iteration
    /// that detected anything.
    public var explored: [String] = []
    public var firstDetectionPoint: String?
    /// Checks the grader makes that this system could not (`MissingCheck`); empty on Linux.
    public var wentWithout: [MissingCheck] = []
    /// Where the story's time went (nil from a child that did not measure it).
    public var profile: StoryProfile?

    enum CodingKeys: String, CodingKey {
        case iterationsRun, failures, firstFailureIteration, tsanReports, firstTSanIteration, firstDetectionSeconds,
            elapsedSeconds
        case notes, metrics, tsanEnabled, explored, firstDetectionPoint, wentWithout, profile
    }

    /// Fields a line may leave out (an older child, a hand-written test line) take their defaults.
    public init(from decoder: Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        iterationsRun = try values.decode(Int.self, forKey: .iterationsRun)
        failures = try values.decodeIfPresent([InvariantFailure].self, forKey: .failures) ?? []
        firstFailureIteration = try values.decodeIfPresent(Int.self, forKey: .firstFailureIteration)
        tsanReports = try values.decodeIfPresent(Int.self, forKey: .tsanReports) ?? 0
        firstTSanIteration = try values.decodeIfPresent(Int.self, forKey: .firstTSanIteration)
        firstDetectionSeconds = try values.decodeIfPresent(Double.self, forKey: .firstDetectionSeconds)
        elapsedSeconds = try values.decodeIfPresent(Double.self, forKey: .elapsedSeconds) ?? 0
        notes = try values.decodeIfPresent([String].self, forKey: .notes) ?? []
        metrics = try values.decodeIfPresent([String: Double].self, forKey: .metrics) ?? [:]
        tsanEnabled = try values.decode(Bool.self, forKey: .tsanEnabled)
        explored = try values.decodeIfPresent([String].self, forKey: .explored) ?? []
        firstDetectionPoint = try values.decodeIfPresent(String.self, forKey: .firstDetectionPoint)
        wentWithout = try values.decodeIfPresent([MissingCheck].self, forKey: .wentWithout) ?? []
        profile = try values.decodeIfPresent(StoryProfile.self, forKey: .profile)
    }

    public init() {}
}

/// Runs a scenario's iterations on the main thread (in a child process, or in-process in tests):
/// the plan's pass (`ScenarioPass`) says which iterations and what is armed around each; the
/// checks (`IterationCheck`) judge each; `OutcomeTally` adds them up.
public enum ScenarioDriver {
    /// `onIteration` hears each iteration as it starts (with its exploration point, if any);
    /// `onFailure` hears of each invariant failure of `play` as soon as it is recorded.
    @_spi(LabAuthoring) public static func run(
        _ lab: PlayableLab, plan: ScenarioPlan, onIteration: (Int, ExplorationPoint?) -> Void = { _, _ in },
        onFailure: @escaping (InvariantFailure) -> Void = { _ in }
    ) -> ScenarioOutcome {
        precondition(Thread.isMainThread, "scenarios drive the UI: run them on the main thread")
        let meter = StoryProfile.Meter()
        StoryScope.beginRun()
        var tally = OutcomeTally()
        var pass = plan.makePass()
        let rules = StoryRules(lab: lab, variant: plan.variant)
        let holds = StoryScope.Holds(
            threadEnds: pass.holdsThreadEnds, strongReferences: pass.holdsThreadEnds && rules.keepsViewRelease)
        pass.begin()
        var index = 0
        while index < pass.schedule.count {
            let iteration = index + 1
            let run = ScenarioRun(
                mode: plan.mode, iteration: iteration, seed: SeededRandom.hash(plan.seed, UInt64(iteration)),
                exploration: pass.schedule[index], onFailure: onFailure)
            onIteration(iteration, run.exploration?.point)
            let scope = StoryScope(iteration: iteration, holds: holds) { pass.beforeStory(run) }
            lab.play(variant: plan.variant, in: run)
            scope.end()
            pass.afterStory(run)
            let detected = tally.add(run, findings: rules.checks.map { $0.judge(run) })
            if detected && plan.stopAtFirstDetection { break }
            index += 1
        }
        pass.end(into: &tally.outcome)
        var outcome = tally.finished()
        outcome.wentWithout = MissingCheck.drain()
        outcome.profile = meter.profile()
        return outcome
    }
}
