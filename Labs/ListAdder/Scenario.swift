import Foundation
@_spi(LabAuthoring) import LabKit

/// The user's actions, as every variant must offer them. All are called on the main thread; each
/// changes the list and then starts a recalculation of the total.
public protocol ListAdderController: AnyObject {
    func add(_ number: Int)
    func remove(at index: Int)
    func removeAll(keepingFirst count: Int)
}

public enum ListAdderLab: LabScenario {
    public static let info = LabInfo(
        id: "list-adder",
        title: "Summing a list on a thread while the user edits it",
        source: "source article 000 (ListAdder technote), listings 2 to 8",
        bug: "a background thread reads the controller's numbers array while the main thread changes it",
        invariants: [
            "the process does not crash",
            "the total shown is the sum of a list the user actually had",
            "the sum runs in the background: no step of it on the main thread",
        ],
        expectedDetectors: [.tsan, .crash],
        defaultIterations: [.scripted: 3, .stress: 60]
    )

    public static let variants: [LabVariant<ListAppEnvironment, ListAdderController>] = [
        LabVariant(.broken) { ListAdderBroken(environment: $0) },
    ]

    public static func play(_ variant: LabVariant<ListAppEnvironment, ListAdderController>, in run: ScenarioRun) {
        let screen = TotalScreen()
        var list = [3, 1, 4, 1, 5, 9]
        var sumsTheUserHad: Set<Int> = [list.reduce(0, +)]
        let controller = variant.make(ListAppEnvironment(screen: screen, adder: SlowAdder(), initialNumbers: list))

        var stepsAtLastChange = 0
        func userDid(_ what: String, _ change: (inout [Int]) -> Void, _ action: () -> Void) {
            change(&list)
            stepsAtLastChange = SlowAdder.stepsTaken
            sumsTheUserHad.insert(list.reduce(0, +))
            SlowWork.expectNoWait(showingIn: screen.total, in: run) { run.user(what, action) }
        }

        switch run.mode {
        case .scripted:
            // The technote's story: add an item (a long sum starts), and while that sum is half
            // way through, delete all but one item (a short sum starts).
            let midSum = run.pause(at: "adder.step", hit: 3)
            userDid("adds 2", { $0.append(2) }) { controller.add(2) }
            midSum.whilePaused {
                userDid("deletes all but one", { $0.removeSubrange(1...) }) { controller.removeAll(keepingFirst: 1) }
            }
        case .stress:
            for _ in 0..<6 {
                run.randomPause(upTo: 2)
                switch run.random.next(upperBound: UInt64(4)) {
                case 0 where list.count > 1:
                    let index = Int(run.random.next(upperBound: UInt64(list.count)))
                    userDid("deletes item \(index)", { $0.remove(at: index) }) { controller.remove(at: index) }
                case 1 where list.count > 2:
                    userDid("deletes all but one", { $0.removeSubrange(1...) }) { controller.removeAll(keepingFirst: 1) }
                default:
                    let number = Int(run.random.next(upperBound: UInt64(10)))
                    userDid("adds \(number)", { $0.append(number) }) { controller.add(number) }
                }
            }
        }

        run.settle(until: { !screen.recalculating.isOn() })
        let shown = screen.total.text()
        run.expect(
            Int(shown).map(sumsTheUserHad.contains) ?? false,
            "the total shows \(shown), but the user's lists summed to \(sumsTheUserHad.sorted())")
        SlowWork.expectOffMain("step(s) of a sum", in: run)
        SlowWork.expectAdded(list.count, since: stepsAtLastChange, in: run)
        withExtendedLifetime(controller) {}
    }
}
