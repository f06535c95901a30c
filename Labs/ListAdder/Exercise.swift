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
        Thread.detachNewThread {
            var total = 0
            // TODO: fix this: this thread reads self.numbers while the main thread keeps changing it: a data
            // race, and if the list shrinks mid-loop, an index past the end (a crash).
            let count = self.numbers.count
            for index in 0..<count {
                total = self.adder.add(self.numbers[index], to: total)
            }
            // The UI is updated on the main thread (that bug has its own lab: ui-off-main).
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
