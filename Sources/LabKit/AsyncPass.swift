import CRaceLabSupport

/// Swift concurrency's jobs in an order RaceLab chooses (JobScheduler.c): the global executor's
/// jobs run one at a time, each chosen when the story waits and the lab's threads are quiet, so
/// one seed gives one order on any machine. First the jobs in the order they came (a survey:
/// how many were ready at each choice), then every single other choice the survey found, one an
/// iteration (as the explore pass moves one pause), then seeded priorities with change points
/// (PCT) for the iterations left. The story is played as in the stress pass, without its delays.
struct AsyncPass: ScenarioPass {
    private(set) var schedule: [ScenarioRun.Exploration?] = [nil]
    private var orders: [JobOrder] = [.arrival]
    private let iterations: Int
    private var installed = false
    var holdsThreadEnds: Bool { false }

    /// At most this share of the iterations goes to single other choices; the rest, to PCT.
    static let movesShare = 0.6
    /// PCT's change points: 0 to this many - 1 an iteration, in turn.
    static let maxDepth = 3

    init(iterations: Int) { self.iterations = max(iterations, 1) }

    mutating func begin() {
        installed = rl_jobs_install() == 0
        if !installed { MissingCheck.record(.jobOrder) }
    }

    mutating func beforeStory(_ run: ScenarioRun) {
        guard installed else { return }
        let order = orders[run.iteration - 1]
        switch order {
        case .arrival:
            rl_jobs_begin_story(run.seed, Int32(RL_JOBS_FIFO), -1, 0, 0, 0)
        case .move(let choice, let alternative):
            rl_jobs_begin_story(run.seed, Int32(RL_JOBS_ONE_MOVE), Int64(choice), Int64(alternative), 0, 0)
        case .priorities(let depth, let horizon):
            rl_jobs_begin_story(run.seed, Int32(RL_JOBS_PCT), -1, 0, Int32(depth), Int64(horizon))
        }
        TraceFile.note(.job, "the jobs in order: \(order)")  // not the user's action: the pass's
    }

    mutating func afterStory(_ run: ScenarioRun) {
        guard installed else {
            if run.iteration == 1 && MissingCheck.facilitiesHere {
                run.note("the async pass found no enqueue hooks in Swift's runtime: the jobs ran on its own pool")
            }
            return
        }
        rl_jobs_end_story()
        run.record("jobs run", Double(rl_jobs_ran()))
        run.record("job choices", Double(rl_jobs_choices()))
        if rl_jobs_unsettled() > 0 { run.record("job choices made before quiet", Double(rl_jobs_unsettled())) }
        if rl_jobs_parked() > 0 { run.record("jobs that blocked", Double(rl_jobs_parked())) }
        if rl_jobs_drained() > 0 { run.record("jobs left from the story before", Double(rl_jobs_drained())) }
        guard run.iteration == 1 else { return }
        let sizes = (0..<min(Int(rl_jobs_choices()), 256)).map { Int(rl_jobs_choice_size(Int64($0))) }
        orders += Self.plan(survey: sizes, jobs: Int(rl_jobs_ran()), iterations: iterations)
        schedule = orders.map { _ in nil }
    }

    /// The iterations after the survey: each single other choice (the first `movesShare` of the
    /// budget, earliest choices first), then PCT with 1 to `maxDepth` priority changes in turn.
    static func plan(survey sizes: [Int], jobs: Int, iterations: Int) -> [JobOrder] {
        let budget = iterations - 1
        guard budget > 0 else { return [] }
        let moves = sizes.enumerated().flatMap { choice, size in (1..<max(size, 1)).map { JobOrder.move(choice, $0) } }
        let taken = Array(moves.prefix(Int(Double(budget) * movesShare)))
        let horizon = max(jobs, 1)
        let rest = (0..<(budget - taken.count)).map { JobOrder.priorities(depth: 1 + $0 % maxDepth, horizon: horizon) }
        return taken + rest
    }
}

/// How one iteration's jobs are ordered.
enum JobOrder: Equatable, CustomStringConvertible {
    /// The order they came in.
    case arrival
    /// As they came, except at choice `choice` (of two or more ready jobs, from 0): ready job
    /// number `alternative` instead of the first.
    case move(Int, Int)
    /// PCT: each task a seeded priority, lowered `depth - 1` times among the first `horizon` jobs.
    case priorities(depth: Int, horizon: Int)

    var description: String {
        switch self {
        case .arrival: "as they came"
        case .move(let choice, let alternative):
            "as they came, but choice \(choice + 1) takes ready job \(alternative + 1)"
        case .priorities(let depth, _): "seeded priorities, \(depth - 1) change(s)"
        }
    }
}

extension AsyncPass {
    /// For code that runs as Swift tasks only: the labs of tasks (`LabInfo.runsTasks`) and, in the
    /// others, the fixes that use tasks (`LabVariant.runsTasks`: Swift 6 fixes). Not yet one of a
    /// grade's passes: make run and racelab run show it beside the others.
    static let policy = PassPolicy(
        defaultIterations: 30, seedOffset: 1500, gradeRuns: 1, gradePoints: 0, isSystematic: false,
        isCalibrated: false, storyMode: .stress, startOrder: 1, shardedStartOrder: 1, showsBroken: false,
        howItTries: "Swift concurrency's jobs run one at a time, in orders chosen by seed",
        helpText: "runs Swift concurrency's jobs one at a time, in orders chosen by seed (code of tasks only)",
        makePass: { AsyncPass(iterations: $0.iterations) },
        appliesTo: { variant, lab in lab.runsTasks || variant.runsTasks }, isGraded: false)
}
