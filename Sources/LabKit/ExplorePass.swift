/// The scripted story again and again, each time with one of its pauses moved to another
/// arrival off the main thread: a survey first (unless one point is asked for), then every point
/// it found, up to the plan's iterations (only this child's share of them, when sharded).
struct ExplorePass: ScenarioPass {
    private(set) var schedule: [ScenarioRun.Exploration?]
    private let limit: Int
    private let shard: ExplorationShard?
    var holdsThreadEnds: Bool { true }

    init(plan: ScenarioPlan) {
        schedule = [plan.point.map { .point($0) } ?? .survey]
        limit = max(plan.iterations - 1, 0)
        shard = plan.shard
    }

    mutating func beforeStory(_ run: ScenarioRun) {
        // A point before the story's first pause: held by time, not by the story.
        if case .point(let point) = run.exploration, point.pause == 0 {
            Checkpoint.armAny(hit: point.hit, limit: ExplorationPoint.timedHold, storyReleases: false)
        }
    }

    mutating func afterStory(_ run: ScenarioRun) {
        guard case .survey = run.exploration else { return }
        // Each pause's arrivals after it; a story without pauses: the iteration's.
        let end = Checkpoint.workerHits
        let counts = run.workerHitsAtPause.isEmpty ? [end] : run.workerHitsAtPause.map { end - $0 }
        let points = ExplorationPoint.points(
            survey: counts, limit: limit, firstPause: run.workerHitsAtPause.isEmpty ? 0 : 1)
        schedule += points.enumerated().filter { shard?.includes($0.offset) ?? true }.map { .point($0.element) }
    }
}

extension ExplorePass {
    /// One run walks every point (a second would replay the same points). Whole, it is the
    /// longest child there is, so it starts right after scripted; split, its shards are many
    /// short children that start last and fill the gaps.
    static let policy = PassPolicy(
        defaultIterations: 41, seedOffset: 500, gradeRuns: 1, gradePoints: 3, isSystematic: true,
        isCalibrated: false, storyMode: .scripted, startOrder: 1, shardedStartOrder: 3, showsBroken: false,
        howItTries: "that pause moved to every other checkpoint arrival in turn",
        helpText: "moves that pause to every other checkpoint arrival in turn",
        makePass: { ExplorePass(plan: $0) })
}
