import Foundation
import LabKit
import UIOffMain

/// EXERCISE: a copy of the broken variant. Make every screen update happen on the main thread.
/// Check it with `make check LAB=ui-off-main`. Keep the class name and `add(_:)`.
/// Sums on a background thread, from a private copy of the list (so no data race on the list),
/// and then updates the screen from that same thread.
final class UIOffMainExercise: UIOffMainController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        let snapshot = numbers
        let screen = self.screen, adder = self.adder
        Thread.detachNewThread {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            // TODO: fix this: UI objects belong to the main thread, but these two lines run on the worker.
            screen.total.setText(String(total))
            screen.recalculating.set(false)
        }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeUIOffMainExercise(_ environment: ListAppEnvironment) -> UIOffMainController {
    UIOffMainExercise(environment: environment)
}
