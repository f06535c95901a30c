import Foundation
import LabKit
import OffMainDealloc

/// EXERCISE: a copy of the broken variant. Make the controller always die on the main thread, and
/// never update a dismissed screen. Check it with `racelab run off-main-dealloc --variant exercise`.
/// Recalculates on a thread whose closure uses `self`.
final class OffMainDeallocExercise: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder

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
        // TODO (was BUG): the closure captures self, so the worker thread keeps the controller alive. If the
        // user leaves meanwhile, the worker's release is the last one and deinit runs on the worker.
        Thread.detachNewThread { [self] in
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            let screen = self.screen
            // TODO (was BUG): nothing checks whether the screen still exists before updating it.
            DispatchQueue.main.async {
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }

    func dismiss() {
        // TODO (was BUG): nothing tells the work in flight that its screen is going away.
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeOffMainDeallocExercise(_ environment: ListAppEnvironment) -> OffMainDeallocController {
    OffMainDeallocExercise(environment: environment)
}
