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
        source: "seed 000 (ListAdder technote): cancellation, listings 8 and 10",
        bug: "a recalculation that has been superseded is never cancelled and runs to its end, wasting CPU",
        invariants: [
            "after a recalculation is superseded, it does at most one more step of work",
            "once quiet, the total shown is the sum of the current list (a cancelled sum never shows)",
        ],
        expectedDetectors: [.invariant]
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

        func userChanged(_ what: String, _ change: (inout [Int]) -> Void, _ action: () -> Void) {
            change(&list)
            edits += 1
            run.user(what, action)
            // Counted once the action (and so any cancel() it makes) is done: steps the old sum
            // takes before its cancel are not its fault. (Steps the new sum takes in this instant
            // count as earlier work, which can only make the check more lenient.)
            stepsBeforeLastEdit = SlowAdder.stepsTaken
        }

        switch run.mode {
        case .scripted:
            // A long sum starts (13 numbers); at its 3rd step the user deletes all but one number.
            let longSum = run.pause(at: "adder.step", hit: 3)
            userChanged("adds 13", { $0.append(13) }) { controller.add(13) }
            longSum.whilePaused {
                userChanged("deletes all but one", { $0.removeSubrange(1...) }) { controller.removeAll(keepingFirst: 1) }
            }
        case .stress:
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
        let allowed = edits - 1
        run.record("wasted steps", Double(max(wasted, 0)))
        run.expect(wasted <= allowed,
                   "superseded sums kept working: \(wasted) steps after the last change were wasted (allowed: \(allowed))")
        let shown = screen.total.text()
        run.expect(shown == String(list.reduce(0, +)),
                   "once quiet, the total shows \(shown) but the current list sums to \(list.reduce(0, +))")
        withExtendedLifetime(controller) {}
    }
}
