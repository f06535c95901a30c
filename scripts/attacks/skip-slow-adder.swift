// ATTACK: skip-slow-adder
// Skips the lab's slow work altogether: sums the list on the main thread without the app's adder.
import Foundation
import LabKit
import ListAdder

final class ListAdderExercise: ListAdderController {
    private var numbers: [Int]
    private let screen: TotalScreen

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
    }

    func add(_ number: Int) { numbers.append(number); recalculate() }
    func remove(at index: Int) { numbers.remove(at: index); recalculate() }
    func removeAll(keepingFirst count: Int) { numbers.removeSubrange(count...); recalculate() }

    private func recalculate() {
        screen.recalculating.set(true)
        let total = numbers.reduce(0, +)
        DispatchQueue.main.async {
            self.screen.total.setText(String(total))
            self.screen.recalculating.set(false)
        }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeListAdderExercise(_ environment: ListAppEnvironment) -> ListAdderController {
    ListAdderExercise(environment: environment)
}
