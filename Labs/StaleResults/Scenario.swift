import Foundation
@_spi(LabAuthoring) import LabKit

/// The user's actions on the list; each one starts a recalculation of the total.
public protocol StaleResultsController: AnyObject {
    func add(_ number: Int)
    func removeAll(keepingFirst count: Int)
}

public enum StaleResultsLab: LabScenario {
    public static let info = LabInfo(
        id: "stale-results",
        title: "An old, slow result overwrites a newer one",
        source: "source article 000 (ListAdder technote), after listing 5; listings 10 to 12",
        bug: "two recalculations run at once; the older, longer one finishes last and its total replaces the newer one",
        invariants: [
            "once the app is quiet, the total shown is the sum of the current list",
            "the total shown is always the sum of a list the user had, and never goes back from a newer list's total to an older one's",
            "the sum runs in the background: no step of it on the main thread",
        ],
        expectedDetectors: [.invariant],
        // 60: the broken variant is caught in about one iteration in two (Grading/calibration.json),
        // and each iteration ends with a late result held mid-way, which costs a few milliseconds.
        defaultIterations: [.scripted: 3, .stress: 60]
    )

    public static let variants: [LabVariant<ListAppEnvironment, StaleResultsController>] = [
        LabVariant(.broken) { StaleResultsBroken(environment: $0) },
    ]

    public static func play(_ variant: LabVariant<ListAppEnvironment, StaleResultsController>, in run: ScenarioRun) {
        let screen = TotalScreen()
        // Scripted: a short list, so that the story's lists can repeat lengths and numbers.
        var list = run.mode == .scripted ? [4, 8] : [4, 8, 15, 16, 23, 42, 7, 9]
        let controller = variant.make(ListAppEnvironment(screen: screen, adder: SlowAdder(), initialNumbers: list))
        var sums = [list.reduce(0, +)]  // the total of each list the user had, oldest first

        var stepsAtLastChange = 0
        func userChanged(_ what: String, _ change: (inout [Int]) -> Void, _ action: () -> Void) {
            change(&list)
            stepsAtLastChange = SlowAdder.stepsTaken
            sums.append(list.reduce(0, +))
            run.user(what, action)
        }
        /// Watch the label while waiting: a shown total must be the sum of a list the user had, and
        /// must never go back to an older list's. Two lists can have the same sum, and then look
        /// the same on screen: a total is taken for the oldest list that has it and is not older
        /// than the list shown before, so only a real step back is reported.
        let untouched = screen.total.text()
        var newestSeen = 0
        var strangeSeen: Set<String> = []
        func watch() -> Bool {
            let text = screen.total.text()
            guard let shown = Int(text), sums.contains(shown) else {
                if text != untouched, strangeSeen.insert(text).inserted {
                    run.fail("the total shows \(text), the sum of no list the user had (a partial or mixed sum)")
                }
                return true
            }
            if let generation = sums.indices.first(where: { $0 >= newestSeen && sums[$0] == shown }) {
                newestSeen = generation
            } else {
                run.fail("the total went back from \(sums[newestSeen]) to \(shown), the sum of an older list")
                newestSeen = sums.lastIndex(of: shown) ?? newestSeen  // report each step back once
            }
            return true
        }

        func lateResult() {
            run.settle(until: watch)
            let stepsBefore = SlowAdder.stepsTaken
            let number = Int(run.random.next(upperBound: UInt64(20)))
            // The sum about to start takes one step per number; the thread that takes its last
            // step is held at its next synchronisation point but 0 to 7 (a lock taken, a value
            // read, the lock let go), or, one time in three, as it hands the total on to a queue
            // (to main), in a courier thread if it starts one: after any check, before the total
            // is on its way.
            let atHandOver = run.random.next(upperBound: UInt64(3)) == 0
            ThreadHold.arm(atHit: stepsBefore + list.count + 1,
                           at: atHandOver ? .handOver : .point(skipping: Int(run.random.next(upperBound: UInt64(8)))), atMost: 0.1)
            defer { ThreadHold.cancel() }
            userChanged("adds \(number)", { $0.append(number) }) { controller.add(number) }
            // A hand-over that is not a dispatch_async is never held: do not wait long for it.
            guard ThreadHold.waitUntilHeld(timeout: atHandOver ? 0.2 : 1) else { return }
            if list.count > 2 {
                userChanged("deletes all but 2", { $0.removeSubrange(2...) }) { controller.removeAll(keepingFirst: 2) }
            } else {
                userChanged("adds 1", { $0.append(1) }) { controller.add(1) }
            }
            let newest = String(list.reduce(0, +))
            run.waitUntil(timeout: 0.09) { _ = watch(); return screen.total.text() == newest }
            ThreadHold.release()
            run.record("late results held", 1)
        }

        switch run.mode {
        case .scripted:
            // The technote's story, made harder to dodge: the user adds 5, and a sum of three
            // numbers starts. At its 2nd step the user deletes all but the first number, adds 9,
            // then adds 5 again. The old sum is held until every newer one has finished and been
            // shown; then it goes on and finishes last. Its list, [4, 8, 5], has as many numbers as
            // the newest one, [4, 9, 5], and ends with the same number; only the totals differ
            // (17 and 18). Checking lengths or last numbers cannot tell them apart.
            let oldSum = run.pause(at: "adder.step", hit: 2)
            userChanged("adds 5", { $0.append(5) }) { controller.add(5) }
            oldSum.whilePaused {
                userChanged("deletes all but one", { $0.removeSubrange(1...) }) { controller.removeAll(keepingFirst: 1) }
                userChanged("adds 9", { $0.append(9) }) { controller.add(9) }
                userChanged("adds 5", { $0.append(5) }) { controller.add(5) }
                if !run.settle(timeout: 2, until: watch) {
                    run.note("the newer sums did not finish while the old one was held")
                }
            }
        case .stress:
            // Random edits at random moments: lists often come back to a length they had, and
            // numbers repeat.
            for _ in 0..<5 {
                run.randomPause(upTo: 3)
                if list.count > 2 && run.random.next(upperBound: UInt64(3)) == 0 {
                    let keep = 1 + Int(run.random.next(upperBound: UInt64(list.count - 1)))
                    userChanged("deletes all but \(keep)", { $0.removeSubrange(keep...) }) { controller.removeAll(keepingFirst: keep) }
                } else {
                    let number = Int(run.random.next(upperBound: UInt64(20)))
                    userChanged("adds \(number)", { $0.append(number) }) { controller.add(number) }
                }
                _ = watch()
            }
            // Then a late result: once things are quiet, the user edits; when that sum
            // has added its last number, its thread is stopped at its next synchronisation point
            // (where it asks "am I still the newest?", or hands its total to main) while the user
            // edits again and the newer total is shown. A check made on the worker is stale by the
            // time its total lands; one made on main, as the total lands, is not.
            lateResult()
        }

        // Quiet: every sum has ended and every total that was on its way has landed (a fix that
        // runs the sums one after another may show each older total first, in order, while the
        // newest is still queued; on a loaded machine, for a while).
        run.settle(until: watch)
        let shown = screen.total.text()
        run.expect(shown == String(list.reduce(0, +)),
                   "once quiet, the total shows \(shown) but the current list sums to \(list.reduce(0, +))")
        SlowWork.expectOffMain("step(s) of a sum", in: run)
        SlowWork.expectAdded(list.count, since: stepsAtLastChange, in: run)
        withExtendedLifetime(controller) {}
    }
}
