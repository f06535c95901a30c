// ATTACK: nsmutablearray-hidden
// Keeps the list in an NSMutableArray: the race happens inside Foundation, where TSan cannot see.
import Foundation
import LabKit
import ListAdder

final class ListAdderExercise: ListAdderController {
    private let numbers = NSMutableArray()
    private let screen: TotalScreen
    private let adder: SlowAdder

    init(environment: ListAppEnvironment) {
        for number in environment.initialNumbers { numbers.add(number) }
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.add(number)
        recalculate()
    }

    func remove(at index: Int) {
        numbers.removeObject(at: index)
        recalculate()
    }

    func removeAll(keepingFirst count: Int) {
        while numbers.count > count { numbers.removeLastObject() }
        recalculate()
    }

    private func recalculate() {
        screen.recalculating.set(true)
        let shared = numbers
        Thread.detachNewThread {
            // Unsynchronised read of the array main keeps changing (no lock, no queue).
            let copy = (shared.copy() as? NSArray) ?? NSArray()
            var total = 0
            for case let number as Int in copy {
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
