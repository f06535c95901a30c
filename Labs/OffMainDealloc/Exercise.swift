import Foundation
import LabKit
import OffMainDealloc

/// EXERCISE: a copy of the broken variant. Make the controller always die on the main thread, and
/// never update a dismissed screen. Check it with `make check LAB=off-main-dealloc`.
/// Recalculates on a thread whose closure uses `self`.
final class OffMainDeallocExercise: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    /// Set when the user leaves. Locked, like an atomic property: reading it is safe from any thread.
    private let cancelLock = NSLock()
    private var isCancelled = false
    private var cancelled: Bool {
        get { cancelLock.withLock { isCancelled } }
        set { cancelLock.withLock { isCancelled = newValue } }
    }

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
        super.init(screenName: OffMainDeallocLab.screenName)
    }

    func add(_ number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        let snapshot = numbers
        // TODO: fix this: the closure captures self, so the worker thread keeps the controller alive. If the
        // user leaves meanwhile, the worker's release is the last one and deinit runs on the worker.
        Thread.detachNewThread { [self] in
            var total = 0
            for number in snapshot {
                if cancelled { return }  // the user left: stop adding
                total = adder.add(number, to: total)
            }
            // TODO: fix this: the flag is checked here, on the worker, but the total then waits in the main
            // queue: if the user leaves meanwhile, it still reaches the dismissed screen.
            guard !cancelled else { return }
            let screen = self.screen, result = total
            DispatchQueue.main.async {
                screen.total.setText(String(result))
                screen.recalculating.set(false)
            }
        }
    }

    func dismiss() {
        // TODO: fix this: cancelling stops the sum at its next step, and that is all it does. The worker
        // thread still holds self until its closure returns: when that release is the last one,
        // deinit runs on the worker.
        cancelled = true
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeOffMainDeallocExercise(_ environment: ListAppEnvironment) -> OffMainDeallocController {
    OffMainDeallocExercise(environment: environment)
}
