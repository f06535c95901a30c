import LabKit
import OffMainDealloc

/// The same fix in Swift 6 terms (this file is built in the Swift 6 language mode, with every
/// warning an error). The controller belongs to the main actor, and the background sum is a
/// detached task that is handed the numbers and the adder, nothing else: one that captured the
/// controller would not compile. The task that waits for the total starts and resumes on the main
/// actor and holds the controller weakly, so the controller is only ever loaded, and released, on
/// the main thread. `dismiss()` forgets the sum in flight (and cancels it); whether a total may
/// still be shown is asked on the main actor, as it lands.
@MainActor
final class OffMainDeallocFixedSwift6: ScreenController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var recalculation: Task<Int?, Never>?  // the newest sum; main actor only

    nonisolated init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
        super.init(screenName: OffMainDeallocLab.screenName)
    }

    // FIX: an isolated deinit runs on the main actor, wherever the last release happens: released on
    // another thread, the controller's teardown (ScreenController's deinit, the screen's release)
    // would be sent to the main thread. Here nothing off the main thread can hold it anyway.
    isolated deinit {}

    // The user's actions: main-actor methods. The protocol's are not isolated (its code is older
    // than Swift 6), so the conformance is declared `@preconcurrency` (below): each call checks
    // that it came on the main thread, and traps if not, instead of trusting a comment.
    func add(_ number: Int) {
        recalculate(adding: number)
    }

    func dismiss() {
        // FIX: the user left: the sum stops at its next step, and its total is dropped.
        recalculation?.cancel()
        recalculation = nil
    }

    private func recalculate(adding number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        recalculation?.cancel()
        let numbers = self.numbers, adder = self.adder
        // FIX: the sum is handed values only (a detached task that captured the controller would
        // not compile): no background code can hold the controller, or the screen.
        let sum = Task.detached { () -> Int? in
            var total = 0
            for number in numbers {
                if Task.isCancelled { return nil }  // the user left, or changed the list: stop adding
                total = adder.add(number, to: total)
            }
            return total
        }
        recalculation = sum
        // This task inherits the main actor: it waits for the sum and resumes on the main thread,
        // and it loads the controller (held weakly) only there.
        Task { [weak self] in
            let total = await sum.value
            self?.show(total, of: sum)
        }
    }

    private func show(_ total: Int?, of sum: Task<Int?, Never>) {
        // FIX: asked on the main actor, as the total lands: after `dismiss()` no sum is the newest,
        // so nothing reaches the dismissed screen.
        guard sum == recalculation, let total else { return }
        recalculation = nil
        screen.total.setText(String(total))
        screen.recalculating.set(false)
    }
}

extension OffMainDeallocFixedSwift6: @preconcurrency OffMainDeallocController {}

extension OffMainDeallocLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<ListAppEnvironment, OffMainDeallocController>] {
        [LabVariant(.fixed, name: "fixed-main-actor", runsTasks: true) { OffMainDeallocFixedSwift6(environment: $0) }]
    }
}
