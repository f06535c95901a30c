import CRaceLabSupport

/// Seeded random timing, `iterations` times: random delays and holds at checkpoints, actions at
/// random moments, and random preemption of lab threads at their synchronisation points
/// (Preemption.c), for the windows between two of the student's own instructions, where no
/// checkpoint is.
struct StressPass: ScenarioPass {
    /// Largest delay at a checkpoint, in microseconds.
    static let jitterMicroseconds = 400
    /// Share of the worker arrivals held, per thousand, and for how long at most.
    static let holdPermille = 20
    static let holdMicroseconds = 4_000
    /// A random lab thread is preempted every 1 to `interval` µs, for 1 to `sleep` µs.
    static let preemptIntervalMicroseconds: Int64 = 50
    static let preemptSleepMicroseconds: Int64 = 300

    let schedule: [ScenarioRun.Exploration?]
    private let seed: UInt64
    private var preempting = false
    private var signalsAtStart: Int64 = 0
    var holdsThreadEnds: Bool { true }

    init(iterations: Int, seed: UInt64) {
        schedule = Array(repeating: nil, count: max(iterations, 1))
        self.seed = seed
    }

    mutating func begin() {
        preempting = rl_preemption_start(seed, Self.preemptIntervalMicroseconds, Self.preemptSleepMicroseconds) == 0
        if !preempting { MissingCheck.record(.preemption) }
        signalsAtStart = rl_preemption_signals_sent()
    }

    mutating func beforeStory(_ run: ScenarioRun) {
        Checkpoint.setJitter(seed: run.seed, maxMicroseconds: Self.jitterMicroseconds)
        Checkpoint.setHolds(permille: Self.holdPermille, maxMicroseconds: Self.holdMicroseconds)
    }

    mutating func afterStory(_ run: ScenarioRun) {
        Checkpoint.setJitter(seed: 0, maxMicroseconds: 0)
        Checkpoint.setHolds(permille: 0, maxMicroseconds: 0)
    }

    mutating func end(into outcome: inout ScenarioOutcome) {
        guard preempting else { return }
        outcome.metrics["preemptions", default: 0] += Double(rl_preemption_signals_sent() - signalsAtStart)
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
        howItTries: "random timing", helpText: "uses seeded random delays and preemption",
        makePass: { StressPass(iterations: $0.iterations, seed: $0.seed) })
}
