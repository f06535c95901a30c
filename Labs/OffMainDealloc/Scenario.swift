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
        source: "seed 000 (ListAdder technote), \"The Deallocation Problem\"; seed 002 on cancelling before the owner dies",
        bug: "the worker retains the controller; the user dismisses the screen; the worker's release is the last one, so deinit runs on the worker thread",
        invariants: [
            "the controller's deinit runs on the main thread",
            "no callback updates a screen after it was dismissed",
            "a dismissed controller is deallocated once its work settles (no leak)",
        ],
        expectedDetectors: [.invariant]
    )

    public static let variants: [LabVariant<ListAppEnvironment, OffMainDeallocController>] = [
        LabVariant(.broken) { OffMainDeallocBroken(environment: $0) },
    ]

    public static func play(_ variant: LabVariant<ListAppEnvironment, OffMainDeallocController>, in run: ScenarioRun) {
        _ = DeallocationLog.shared.drain()
        let screen = TotalScreen()
        var controller: OffMainDeallocController? = variant.make(
            ListAppEnvironment(screen: screen, adder: SlowAdder(), initialNumbers: [3, 5, 7, 11, 13]))

        func userDismisses() {
            run.user("leaves the screen") {
                controller?.dismiss()
                screen.close()  // the screen is gone: later updates are callbacks reaching a dead screen
                controller = nil  // the app's navigation lets go of the controller
            }
        }

        switch run.mode {
        case .scripted:
            // A sum starts; while it is at its 2nd step, the user leaves the screen.
            let midSum = run.pause(at: "adder.step", hit: 2)
            run.user("adds 17") { controller?.add(17) }
            midSum.whilePaused(userDismisses)
        case .stress:
            for _ in 0..<Int(run.random.next(upperBound: UInt64(3))) + 1 {
                let number = Int(run.random.next(upperBound: UInt64(10)))
                run.user("adds \(number)") { controller?.add(number) }
                run.randomPause(upTo: 2)
            }
            userDismisses()
        }

        run.settle()
        let deallocations = DeallocationLog.shared.drain().filter { $0.screenName == screenName }
        if deallocations.isEmpty {
            run.fail("the dismissed controller was never deallocated: something still holds it")
        }
        for entry in deallocations where !entry.onMainThread {
            run.fail("the controller's deinit ran on a background thread (thread \(entry.threadID)), not on main")
        }
    }
}
