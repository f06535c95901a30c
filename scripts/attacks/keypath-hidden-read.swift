// ATTACK: keypath-hidden-read
// Does the racy read through a key path, so that the access happens inside the Swift runtime,
// which ThreadSanitizer does not instrument.
import Foundation
import LabKit
import ListAdder

/// EXERCISE: this starts as a copy of the broken variant. Make it safe: the harness runs it
/// with `make check LAB=list-adder` and passes it only when no detector fires.
/// Keep the class name and the three user actions; change anything else.
final class ListAdderExercise: ListAdderController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private static let path: KeyPath<ListAdderExercise, [Int]> = \ListAdderExercise.numbers

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        recalculate()
    }

    func remove(at index: Int) {
        numbers.remove(at: index)
        recalculate()
    }

    func removeAll(keepingFirst count: Int) {
        numbers.removeSubrange(count...)
        recalculate()
    }

    private func recalculate() {
        screen.recalculating.set(true)
        let path = Self.path
        Thread.detachNewThread {
            // Still the racy read of the live array (no lock, no queue), just not where TSan looks.
            let copy = self[keyPath: path]
            var total = 0
            for number in copy {
                total = self.adder.add(number, to: total)
            }
            let result = total
            DispatchQueue.main.async {
                self.screen.total.setText(String(result))
                self.screen.recalculating.set(false)
            }
        }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeListAdderExercise(_ environment: ListAppEnvironment) -> ListAdderController {
    ListAdderExercise(environment: environment)
}
