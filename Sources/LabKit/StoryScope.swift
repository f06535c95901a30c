import CRaceLabSupport
import Foundation

/// The state each story starts from, in one place. Every facility that keeps state for a story
/// gets its clean slate here, in a fixed order, and the story's holds are armed here and ended
/// with the story; the driver knows none of them (ScenarioDriver).
struct StoryScope {
    /// What the story's holds are to do (StoryHolds.c): a lab thread waits at its end until the
    /// story is over (the pass's choice), and one that takes a strong reference to a controller
    /// waits with it until the user's next action (where the lab keeps the view-release rule).
    struct Holds {
        var threadEnds: Bool
        var strongReferences: Bool
    }

    /// Once, before a run's first story: work and findings from before it are not its own.
    static func beginRun() {
        rl_quiet_begin_story()
        _ = MainThreadChecker.shared.drain()
        _ = MissingCheck.drain()
    }

    /// Begins story `iteration`: checkpoints, operation wake-ups and the trace start afresh, then
    /// the pass arms what it arms (`arm`), then the screens' lifetimes and the holds begin.
    init(iteration: Int, holds: Holds, arm: () -> Void) {
        Checkpoint.reset()
        OperationWakeups.beginStory()
        rl_trace_begin_iteration(Int64(iteration))
        arm()
        ScreenLifetimes.shared.beginIteration(Int64(iteration))
        rl_story_holds_begin(holds.threadEnds ? 1 : 0, holds.strongReferences ? 1 : 0)
        if holds.threadEnds { MissingCheck.record(.threadEndHold) }
    }

    /// The story is over: every held thread goes on, and blocks' releases held back are made.
    func end() { rl_story_holds_over() }
}

/// The checks that judge each of a variant's stories (`IterationCheck`), and whether the
/// view-release rule fails its runs: a curriculum rule, decided here rather than by the driver.
struct StoryRules {
    let checks: [any IterationCheck]
    let keepsViewRelease: Bool

    init(lab: PlayableLab, variant: String) {
        keepsViewRelease = ViewReleaseRule.holds(
            lab.variant(named: variant)?.kind, exerciseKeepsIt: lab.exerciseKeepsViewReleaseOnMain)
        checks = [StoryInvariants(), MainThreadRule(), ViewReleaseRule(strict: keepsViewRelease)]
    }
}
