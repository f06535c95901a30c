import Foundation
@_spi(LabAuthoring) import LabKit

/// The user's actions on the list; each one starts a recalculation and makes the previous
/// one pointless.
public protocol CancellationController: AnyObject {
    func add(_ number: Int)
    func removeAll(keepingFirst count: Int)
}

public enum CancellationLab: LabScenario {
    public static let info = LabInfo(
        id: "cancellation",
        title: "Work nobody will ever see keeps running",
        source: "source article 000 (ListAdder technote): cancellation, listings 8 and 10",
        bug: "a recalculation that has been superseded is never cancelled and runs to its end, wasting CPU",
        invariants: [
            "a superseded recalculation may finish the step it is in, and starts no other (under random timing, where it may be just past its check, one more at most)",
            "once quiet, the total shown is the sum of the current list (a cancelled sum never shows)",
            "every total the screen ever shows is the full sum of a list the user had (no partial total)",
            "the sum runs in the background: no step of it on the main thread",
        ],
        expectedDetectors: [.invariant],
        defaultIterations: [.scripted: 3, .stress: 100]
    )

    public static let variants: [LabVariant<ListAppEnvironment, CancellationController>] = [
        LabVariant(.broken) { CancellationBroken(environment: $0) },
    ]

    public static func play(_ variant: LabVariant<ListAppEnvironment, CancellationController>, in run: ScenarioRun) {
        let screen = TotalScreen()
        var list = Array(1...12)
        let controller = variant.make(ListAppEnvironment(screen: screen, adder: SlowAdder(), initialNumbers: list))
        var edits = 0
        var stepsBeforeLastEdit = 0
        // The totals a finished sum can show: the full sum of a list the user had.
        var fullTotals: Set<String> = [screen.total.text(), String(list.reduce(0, +))]

        func userChanged(_ what: String, _ change: (inout [Int]) -> Void, _ action: () -> Void) {
            change(&list)
            fullTotals.insert(String(list.reduce(0, +)))
            edits += 1
            let before = SlowAdder.stepsTaken
            run.user(what, action)
            // Scripted: the old sum is held while the user acts, so every step from here on is
            // counted, the new sum's first steps included. Stress: counted once the action (and so
            // any cancel() it makes) is done, since steps an old sum takes before its cancel are not
            // its fault (steps the new sum takes in this instant then count as earlier work, which
            // can only make the check more lenient).
            stepsBeforeLastEdit = run.mode == .scripted ? before : SlowAdder.stepsTaken
        }

        // How many steps a superseded sum may still start after the user's change.
        let allowedPerSuperseded: Int
        switch run.mode {
        case .scripted:
            // A long sum starts (13 numbers); at its 3rd step the user deletes all but one number.
            // (Exploration moves that moment to every step of the long sum in turn.) The old sum is
            // held in the middle of a step while the user acts: it may finish that step, and must
            // not start another one. The old sum is let go only once the new one has finished and
            // been shown, so a cancelled sum that still reports would be the last to speak.
            allowedPerSuperseded = 0
            let longSum = run.pause(at: "adder.step", hit: 3)
            userChanged("adds 13", { $0.append(13) }) { controller.add(13) }
            longSum.whilePaused {
                userChanged("deletes all but one", { $0.removeSubrange(1...) }) { controller.removeAll(keepingFirst: 1) }
                if !run.settle(timeout: 2) {
                    run.note("the new sum did not finish while the old one was held")
                }
            }
        case .stress:
            // Nothing is held here: a sum may be between two steps, past its check, when it is
            // cancelled, so it may start one more step.
            allowedPerSuperseded = 1
            for _ in 0..<4 {
                run.randomPause(upTo: 2)
                if list.count > 8 && run.random.next(upperBound: UInt64(2)) == 0 {
                    userChanged("deletes all but four", { $0.removeSubrange(4...) }) { controller.removeAll(keepingFirst: 4) }
                } else {
                    let number = Int(run.random.next(upperBound: UInt64(10)))
                    userChanged("adds \(number)", { $0.append(number) }) { controller.add(number) }
                }
            }
        }

        run.settle(until: { !screen.recalculating.isOn() })
        // After the last change only the final sum (one step per number) is useful work. Each
        // superseded sum may finish the step it was in when it was cancelled; nothing more.
        let wasted = SlowAdder.stepsTaken - stepsBeforeLastEdit - list.count
        let allowed = (edits - 1) * allowedPerSuperseded
        run.record("wasted steps", Double(max(wasted, 0)))
        run.expect(wasted <= allowed,
                   "superseded sums kept working: \(wasted) steps after the last change were wasted (allowed: \(allowed))")
        let shown = screen.total.text()
        run.expect(shown == String(list.reduce(0, +)),
                   "once quiet, the total shows \(shown) but the current list sums to \(list.reduce(0, +))")
        // Checked over every value the label took, not just the last: a partial total that was
        // on screen until the newest sum replaced it was still seen.
        let partial = screen.total.textsShown.filter { !fullTotals.contains($0) }
        run.expect(partial.isEmpty,
                   "the total label showed \(partial.map { "\"\($0)\"" }.joined(separator: ", ")), no list's full total: a cancelled sum's partial total reached the screen")
        SlowWork.expectOffMain("step(s) of a sum", in: run)
        withExtendedLifetime(controller) {}
    }
}
