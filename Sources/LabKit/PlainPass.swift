/// The story with nothing of RaceLab's armed (`racelab run --plain`): no pause, delay, hold,
/// preemption or job order, the lab's threads and Swift's pool on their own. What a plain test
/// of the same code sees, for comparing with the passes; never one of a grade's.
struct PlainPass: ScenarioPass {
    let schedule: [ScenarioRun.Exploration?]
    var holdsThreadEnds: Bool { false }

    init(iterations: Int) { schedule = Array(repeating: nil, count: max(iterations, 1)) }
}
