import Foundation
import LabKit

/// The naive version: every change starts a thread that adds up `self.numbers`.
final class ListAdderBroken: ListAdderController {
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
            // BUG: this thread reads self.numbers while the main thread keeps changing it: a data
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
