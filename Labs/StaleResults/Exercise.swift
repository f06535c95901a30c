import Foundation
import LabKit
import StaleResults

/// EXERCISE: a copy of the broken variant. Make sure an old result can never replace a newer one.
/// Check it with `make check LAB=stale-results`. Keep the class name and its actions.
/// Each change starts a sum of a private copy of the list and shows the result on the main
/// thread. No data race anywhere, and still wrong.
final class StaleResultsExercise: StaleResultsController {
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
        recalculate()
    }

    func removeAll(keepingFirst count: Int) {
        numbers.removeSubrange(count...)
        recalculate()
    }

    private func recalculate() {
        screen.recalculating.set(true)
        let snapshot = numbers
        let screen = self.screen, adder = self.adder
        Thread.detachNewThread {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.main.async {
                // TODO: fix this: whichever sum finishes last wins, even if the user changed the list since
                // it started: a long, old sum can overwrite the total of the current list.
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeStaleResultsExercise(_ environment: ListAppEnvironment) -> StaleResultsController {
    StaleResultsExercise(environment: environment)
}
