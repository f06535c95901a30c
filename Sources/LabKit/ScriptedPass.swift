/// The story as written, `iterations` times: the driver waits at its named checkpoints, so the
/// bad interleaving happens every run. Nothing is armed around it.
struct ScriptedPass: ScenarioPass {
    let schedule: [ScenarioRun.Exploration?]
    var holdsThreadEnds: Bool { false }

    init(iterations: Int) {
        schedule = Array(repeating: nil, count: max(iterations, 1))
    }
}
