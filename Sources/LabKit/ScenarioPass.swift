import CRaceLabSupport

/// How a run chooses its iterations and what it arms around each: the scripted story
/// (`ScriptedPass`), every single-preemption point of it (`ExplorePass`), or seeded random
/// timing (`StressPass`). A new kind of pass is one new type, with its `PassPolicy` in its file;
/// `ScenarioDriver.run` is the same loop for all.
protocol ScenarioPass {
    /// The iterations known so far, in order; a pass may learn more as it goes (explore's survey).
    var schedule: [ScenarioRun.Exploration?] { get }
    /// Whether a lab thread waits at its end until the story is over (StoryHolds.c): what it
    /// holds is then let go of last, off main, every time.
    var holdsThreadEnds: Bool { get }
    /// Before the first iteration (undone by `end`).
    mutating func begin()
    /// Before the story of `run` is played (its checkpoints reset).
    mutating func beforeStory(_ run: ScenarioRun)
    /// After the story of `run`, before it is judged.
    mutating func afterStory(_ run: ScenarioRun)
    /// After the last iteration: undo `begin`, add what the pass measured.
    mutating func end(into outcome: inout ScenarioOutcome)
}

extension ScenarioPass {
    mutating func begin() {}
    mutating func beforeStory(_ run: ScenarioRun) {}
    mutating func afterStory(_ run: ScenarioRun) {}
    mutating func end(into outcome: inout ScenarioOutcome) {}
}

extension ScenarioPlan {
    /// The pass this plan's mode names (its `PassPolicy` says how to make it).
    func makePass() -> any ScenarioPass {
        plain == true ? PlainPass(iterations: iterations) : mode.policy.makePass(self)
    }
}
