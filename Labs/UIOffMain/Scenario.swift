import Foundation
@_spi(LabAuthoring) import LabKit

/// The user's action: add a number; the variant then recalculates the total in the background.
public protocol UIOffMainController: AnyObject {
    func add(_ number: Int)
}

public enum UIOffMainLab: LabScenario {
    public static let info = LabInfo(
        id: "ui-off-main",
        title: "Updating the screen from a background thread",
        source: "source article 000 (ListAdder technote), listings 2 and 3; source articles 001 and 002 on UI updates",
        bug: "the worker thread sets the total label and the spinner itself instead of going back to the main thread",
        invariants: [
            "every UI access happens on the main thread",
            "once quiet, the total shown is the sum of the list",
            "the sum runs in the background: no step of it on the main thread",
        ],
        expectedDetectors: [.invariant],
        defaultIterations: [.scripted: 3, .stress: 60]
    )

    public static let variants: [LabVariant<ListAppEnvironment, UIOffMainController>] = [
        LabVariant(.broken) { UIOffMainBroken(environment: $0) },
    ]

    public static func play(_ variant: LabVariant<ListAppEnvironment, UIOffMainController>, in run: ScenarioRun) {
        let screen = TotalScreen()
        var list = [2, 7, 1, 8]
        let controller = variant.make(ListAppEnvironment(screen: screen, adder: SlowAdder(), initialNumbers: list))

        // The user adds a few numbers; each addition starts a recalculation, and the user waits
        // for its total before adding the next. (Sums that overlap, where an older one can finish
        // last, are the next lab's story, stale-results: this one is about which thread touches
        // the screen, at any moment of the work.)
        // Stress, now and then: the user adds again before the total came. The sums then overlap;
        // which total ends up on screen is the next lab's story, but a sum that reads the
        // controller's own list (not a copy) races with that second addition, and TSan sees it.
        let additions = run.mode == .scripted ? [5] : (0..<3).map { _ in Int(run.random.next(upperBound: UInt64(10))) }
        let impatient = run.mode == .stress && run.random.next(upperBound: UInt64(3)) == 0
        var totals: Set<String> = [String(list.reduce(0, +))]
        var stepsAtLastChange = 0
        for (index, number) in additions.enumerated() {
            // The impatient user's second addition comes before the main thread had a turn to
            // run anything queued for it (so nothing the worker sent it orders the two).
            if !(impatient && index == 1) { run.randomPause(upTo: 3) }
            list.append(number)
            stepsAtLastChange = SlowAdder.stepsTaken
            totals.insert(String(list.reduce(0, +)))
            SlowWork.expectNoWait(showingIn: screen.total, in: run) { run.user("adds \(number)") { controller.add(number) } }
            if impatient && index == 0 { continue }
            run.waitUntilDoneOrQuiet { !screen.recalculating.isOn() }
        }
        run.settle(until: { !screen.recalculating.isOn() })
        let shown = screen.total.text()
        if impatient {
            run.expect(totals.contains(shown), "once quiet, the total shows \(shown), the sum of no list the user had")
        } else {
            run.expect(shown == String(list.reduce(0, +)),
                       "once quiet, the total shows \(shown) but the list sums to \(list.reduce(0, +))")
        }
        SlowWork.expectOffMain("step(s) of a sum", in: run)
        SlowWork.expectAdded(list.count, since: stepsAtLastChange, in: run)
        withExtendedLifetime(controller) {}
    }
}
