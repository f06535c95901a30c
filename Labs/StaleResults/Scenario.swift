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
        source: "seed 000 (ListAdder technote), after listing 5; listings 10 to 12",
        bug: "two recalculations run at once; the older, longer one finishes last and its total replaces the newer one",
        invariants: [
            "once the app is quiet, the total shown is the sum of the current list",
            "the total shown never goes back to a list the user has already changed",
        ],
        expectedDetectors: [.invariant]
    )

    public static let variants: [LabVariant<ListAppEnvironment, StaleResultsController>] = [
        LabVariant(.broken) { StaleResultsBroken(environment: $0) },
    ]

    public static func play(_ variant: LabVariant<ListAppEnvironment, StaleResultsController>, in run: ScenarioRun) {
        let screen = TotalScreen()
        var list = [4, 8, 15, 16, 23, 42, 7, 9]
        let controller = variant.make(ListAppEnvironment(screen: screen, adder: SlowAdder(), initialNumbers: list))
        var sums: [Int] = []  // the total of each list the user had, oldest first

        func userChanged(_ what: String, _ change: (inout [Int]) -> Void, _ action: () -> Void) {
            change(&list)
            sums.append(list.reduce(0, +))
            run.user(what, action)
        }
        /// Watch the label while waiting: a shown total must never go back to an older list's.
        var newestSeen = -1
        func watch() -> Bool {
            if let shown = Int(screen.total.text()), let generation = sums.lastIndex(of: shown) {
                if generation < newestSeen {
                    run.fail("the total went back from \(sums[newestSeen]) to \(shown), the sum of an older list")
                }
                newestSeen = generation  // report each step back once
            }
            return true
        }

        switch run.mode {
        case .scripted:
            // The technote's story: a long sum starts (9 numbers); while it is at its 2nd step the
            // user deletes all but one number; the short sum finishes and is shown; then the long
            // one goes on and finishes last.
            let longSum = run.pause(at: "adder.step", hit: 2)
            userChanged("adds 1", { $0.append(1) }) { controller.add(1) }
            longSum.whilePaused {
                userChanged("deletes all but one", { $0.removeSubrange(1...) }) { controller.removeAll(keepingFirst: 1) }
                if !run.waitUntil(timeout: 5, { watch() && screen.total.text() == String(list.reduce(0, +)) }) {
                    run.note("the short sum was not shown while the long one was held")
                }
            }
        case .stress:
            for _ in 0..<5 {
                run.randomPause(upTo: 3)
                if list.count > 3 && run.random.next(upperBound: UInt64(3)) == 0 {
                    userChanged("deletes all but one", { $0.removeSubrange(1...) }) { controller.removeAll(keepingFirst: 1) }
                } else {
                    let number = Int(run.random.next(upperBound: UInt64(20)))
                    userChanged("adds \(number)", { $0.append(number) }) { controller.add(number) }
                }
                _ = watch()
            }
        }

        run.settle(until: { watch() && !screen.recalculating.isOn() })
        let shown = screen.total.text()
        run.expect(shown == String(list.reduce(0, +)),
                   "once quiet, the total shows \(shown) but the current list sums to \(list.reduce(0, +))")
        withExtendedLifetime(controller) {}
    }
}
