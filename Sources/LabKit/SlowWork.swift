import Foundation

/// The slow part of a lab's app (a step of a sum, a card read, a mail check) runs in the
/// background so that the screen never freezes. Doing it on the main thread, or making the main
/// thread wait for it, has no race left and a frozen screen instead: the freeze the app put the
/// work on a thread to avoid. Harness objects mark each slow step; scenarios check both rules.
@_spi(LabAuthoring) public enum SlowWork {
    /// At the start of each slow step, on whatever thread does it.
    public static func step() {
        if Thread.isMainThread { Checkpoint.hit("slow-work.on-main") }
    }

    /// Fails the run if a slow step ran on the main thread this iteration; `what` names the steps
    /// ("step(s) of a sum").
    public static func expectOffMain(_ what: String, in run: ScenarioRun) {
        let onMain = Checkpoint.hits("slow-work.on-main")
        run.expect(
            onMain == 0,
            "\(onMain) \(what) ran on the main thread: the screen froze meanwhile (do the work in the background, show the result on main)"
        )
    }

    /// Runs the user's action (on the main thread) and fails the run if `result` was set before
    /// it returned. A result handed to the main queue can only be shown after the action returns;
    /// one shown during it means the main thread waited for the work.
    public static func expectNoWait(showingIn result: ScreenLabel, in run: ScenarioRun, _ action: () -> Void) {
        let before = result.textsShown.count
        action()
        run.expect(
            result.textsShown.count == before,
            "the main thread waited for the work: the result was on screen before the user's action returned, so the screen froze meanwhile (start the work, return, show the result when it is done)"
        )
    }

    /// Fails the run unless the list's numbers were added one by one with the app's adder since
    /// `stepsBefore` (`SlowAdder.stepsTaken` at the last change): the total on screen must come
    /// from the slow work the lab is about, not from a shortcut around it.
    public static func expectAdded(_ count: Int, since stepsBefore: Int, in run: ScenarioRun) {
        let steps = SlowAdder.stepsTaken - stepsBefore
        run.expect(
            steps >= count,
            "the current list has \(count) number(s), but only \(steps) were added with the app's adder (SlowAdder) since the last change: the total must be worked out by that slow work, in the background"
        )
    }
}
