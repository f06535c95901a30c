import Foundation
@_spi(LabAuthoring) import LabKit

/// A screen's controller. Variants subclass `ScreenController`, whose deinit records the thread
/// it ran on.
public protocol OffMainDeallocController: ScreenController {
    /// The user adds a number; the total is recalculated in the background.
    func add(_ number: Int)
    /// The user leaves the screen; right after this the app lets go of the controller.
    func dismiss()
}

public enum OffMainDeallocLab: LabScenario {
    public static let screenName = "off-main-dealloc screen"

    public static let info = LabInfo(
        id: "off-main-dealloc",
        title: "The last release of a screen happens on a worker thread",
        source: "source article 000 (ListAdder technote), \"The Deallocation Problem\"; source article 002 on cancelling before the owner dies",
        bug: "the worker retains the controller; the user dismisses the screen; the worker's release is the last one, so deinit runs on the worker thread",
        invariants: [
            "the controller's deinit runs on the main thread",
            "no callback updates a screen after it was dismissed",
            "a dismissed controller is deallocated once its work settles (no leak)",
            "the sum runs in the background: no step of it on the main thread",
        ],
        expectedDetectors: [.invariant],
        defaultIterations: [.scripted: 3, .stress: 60]
    )

    public static let variants: [LabVariant<ListAppEnvironment, OffMainDeallocController>] = [
        LabVariant(.broken) { OffMainDeallocBroken(environment: $0) },
    ]

    public static func play(_ variant: LabVariant<ListAppEnvironment, OffMainDeallocController>, in run: ScenarioRun) {
        _ = DeallocationLog.shared.drain()
        let numbers = [3, 5, 7, 11, 13]

        /// The user opens the screen: a fresh screen and controller.
        func open() -> (TotalScreen, OffMainDeallocController) {
            let screen = TotalScreen()
            return (screen, variant.make(ListAppEnvironment(screen: screen, adder: SlowAdder(), initialNumbers: numbers)))
        }
        func userDismisses(_ controller: inout OffMainDeallocController?, _ screen: TotalScreen) {
            run.user("leaves the screen") {
                controller?.dismiss()
                screen.close()  // the screen is gone: later updates are callbacks reaching a dead screen
                controller = nil  // the app's navigation lets go of the controller
            }
        }
        /// The main thread is busy (it does not run its queue) until the work in flight has ended:
        /// at least `steps` steps taken in this iteration and every thread of the lab idle or gone.
        /// A total the work posted to the main queue is then waiting there, not shown yet.
        func busyUntilTheWorkEnds(steps: Int) {
            run.busyUntilThreadsWait { SlowAdder.stepsTaken >= steps }
        }
        /// After a visit: the controller was freed, on the main thread.
        func checkDeallocation(_ visit: String) {
            let deallocations = DeallocationLog.shared.drain().filter { $0.screenName == screenName }
            if deallocations.isEmpty {
                run.fail("\(visit): the dismissed controller was never deallocated: something still holds it")
            }
            for entry in deallocations where !entry.onMainThread {
                run.fail("\(visit): the controller's deinit ran on a background thread (thread \(entry.threadID)), not on main")
            }
        }

        switch run.mode {
        case .scripted:
            // 1. The user adds a number, and leaves just after the sum ended, while its total
            //    waits in the main queue: that total must not reach the dismissed screen.
            do {
                var (screen, controller) = open() as (TotalScreen, OffMainDeallocController?)
                run.user("adds 17") { controller?.add(17) }
                busyUntilTheWorkEnds(steps: numbers.count + 1)
                userDismisses(&controller, screen)
                run.settle()
                checkDeallocation("leaving after the sum ended")
            }
            // 2. The user opens the screen again and adds a number; while the sum is at its 2nd
            //    step, the user leaves. (Exploration moves that moment to every step in turn.)
            var (screen, controller) = open() as (TotalScreen, OffMainDeallocController?)
            let midSum = run.pause(at: "adder.step", hit: SlowAdder.stepsTaken + 2)
            run.user("adds 17") { controller?.add(17) }
            midSum.whilePaused { userDismisses(&controller, screen) }
        case .stress:
            var (screen, controller) = open() as (TotalScreen, OffMainDeallocController?)
            for _ in 0..<Int(run.random.next(upperBound: UInt64(3))) + 1 {
                let number = Int(run.random.next(upperBound: UInt64(10)))
                run.user("adds \(number)") { controller?.add(number) }
                run.randomPause(upTo: 2)
            }
            // Now and then the main thread is busy until the work ended, then the user leaves.
            if run.random.next(upperBound: UInt64(3)) == 0 { busyUntilTheWorkEnds(steps: 0) }
            userDismisses(&controller, screen)
        }

        run.settle()
        checkDeallocation(run.mode == .scripted ? "leaving during the sum" : "leaving")

        SlowWork.expectOffMain("step(s) of a sum", in: run)
    }
}
