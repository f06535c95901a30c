import CRaceLabSupport

/// Seeded random timing, `iterations` times: random delays and holds at checkpoints, actions at
/// random moments, and preemption of lab threads at their synchronisation points (Preemption.c),
/// for the windows between two of the student's own instructions, where no checkpoint is. The
/// stories take turns between two ways to preempt (`StressSchedule`): a random running thread
/// stopped a random moment (pauses), or the lab's threads run by seeded priorities, the others
/// waiting, with a few change points (priority, PriorityOrder.c): one story in two each.
struct StressPass: ScenarioPass {
    /// Largest delay at a checkpoint, in microseconds.
    static let jitterMicroseconds = 400
    /// Share of the worker arrivals held, per thousand, and for how long at most.
    static let holdPermille = 20
    static let holdMicroseconds = 4_000
    /// A random lab thread is preempted every 1 to `interval` µs, for 1 to `sleep` µs.
    static let preemptIntervalMicroseconds: Int64 = 50
    static let preemptSleepMicroseconds: Int64 = 300

    /// A priority story's change points are drawn among this many looks with threads competing
    /// before a story has counted them; then among those the last priority story counted (within
    /// `horizons`).
    static let defaultHorizon: Int64 = 200
    static let horizons: ClosedRange<Int64> = 20...20_000

    let schedule: [ScenarioRun.Exploration?]
    private let seed: UInt64
    /// The ways the stories take turns in, one story each.
    let ways: [StressSchedule]
    private var preempting = false
    private var signalsAtStart: Int64 = 0
    private var horizon = StressPass.defaultHorizon
    private var ordering = false
    private var orderedStories = 0
    private var priorityChanges: Int64 = 0
    var holdsThreadEnds: Bool { true }

    init(iterations: Int, seed: UInt64, schedule: StressSchedule? = nil) {
        self.schedule = Array(repeating: nil, count: max(iterations, 1))
        self.seed = seed
        ways = schedule.map { [$0] } ?? StressSchedule.allCases
    }

    /// How iteration `iteration` (1-based) preempts.
    func way(ofIteration iteration: Int) -> StressSchedule { ways[(iteration - 1) % ways.count] }

    mutating func begin() {
        preempting = rl_preemption_start(seed, Self.preemptIntervalMicroseconds, Self.preemptSleepMicroseconds) == 0
        if !preempting { MissingCheck.record(.preemption) }
        signalsAtStart = rl_preemption_signals_sent()
    }

    mutating func beforeStory(_ run: ScenarioRun) {
        Checkpoint.setJitter(seed: run.seed, maxMicroseconds: Self.jitterMicroseconds)
        Checkpoint.setHolds(permille: Self.holdPermille, maxMicroseconds: Self.holdMicroseconds)
        if preempting && way(ofIteration: run.iteration) == .priority {
            // Never 0, which turns the order off.
            rl_priority_order_begin(SeededRandom.hash(run.seed, 0x5052_494f) | 1, horizon)
            ordering = true
        }
    }

    mutating func afterStory(_ run: ScenarioRun) {
        Checkpoint.setJitter(seed: 0, maxMicroseconds: 0)
        Checkpoint.setHolds(permille: 0, maxMicroseconds: 0)
        guard ordering else { return }
        ordering = false
        let rounds = rl_priority_order_rounds()
        priorityChanges += rl_priority_order_changes()
        rl_priority_order_begin(0, 1)
        orderedStories += 1
        if rounds > 0 { horizon = min(max(rounds, Self.horizons.lowerBound), Self.horizons.upperBound) }
    }

    mutating func end(into outcome: inout ScenarioOutcome) {
        guard preempting else { return }
        outcome.metrics["preemptions", default: 0] += Double(rl_preemption_signals_sent() - signalsAtStart)
        if orderedStories > 0 {
            outcome.metrics["stories in priority order", default: 0] += Double(orderedStories)
            outcome.metrics["priority changes", default: 0] += Double(priorityChanges)
        }
        rl_preemption_stop()
        preempting = false
    }
}

extension StressPass {
    /// Its length is the lab's calibration's (`StressPlan`), over `gradeRuns` children: more,
    /// shorter runs of the same total side by side, as iterations are independent trials (only
    /// the total decides the chance) and four children finish sooner than two.
    static let policy = PassPolicy(
        defaultIterations: 200, seedOffset: 1000, gradeRuns: 4, gradePoints: 3, isSystematic: false,
        isCalibrated: true, storyMode: .stress, startOrder: 2, shardedStartOrder: 2, showsBroken: false,
        howItTries: "random timing",
        helpText: "uses seeded random delays and preemption (random pauses and a priority order, in turn)",
        makePass: { StressPass(iterations: $0.iterations, seed: $0.seed, schedule: $0.schedule) })
}
