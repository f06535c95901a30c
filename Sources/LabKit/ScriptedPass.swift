/// The story as written, `iterations` times: the driver waits at its named checkpoints, so the
/// bad interleaving happens every run. Nothing is armed around it.
struct ScriptedPass: ScenarioPass {
    let schedule: [ScenarioRun.Exploration?]
    var holdsThreadEnds: Bool { false }

    init(iterations: Int) {
        schedule = Array(repeating: nil, count: max(iterations, 1))
    }
}

extension ScriptedPass {
    /// Scripted first: short, deterministic, and the surest catch (a grade it fails skips the
    /// rest). The demo of every broken variant.
    static let policy = PassPolicy(
        defaultIterations: 3, seedOffset: 0, gradeRuns: 3, gradePoints: 4, isSystematic: false,
        isCalibrated: false, storyMode: .scripted, startOrder: 0, shardedStartOrder: 0, showsBroken: true,
        howItTries: "the bad interleaving forced at the lab's checkpoints",
        helpText: "forces the story's bad interleaving at its checkpoints",
        makePass: { ScriptedPass(iterations: $0.iterations) })
}
