// WRONG: the worker copies the list before summing, so it no longer indexes past the end; but
// the copy itself is a read of the controller's array on the worker thread while the main
// thread changes it: still a data race.
import Foundation
import LabKit
import ListAdder

final class ListAdderWrongCopyOnWorker: ListAdderController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) { numbers.append(number); recalculate() }
    func remove(at index: Int) { numbers.remove(at: index); recalculate() }
    func removeAll(keepingFirst count: Int) { numbers.removeSubrange(count...); recalculate() }

    private func recalculate() {
        screen.recalculating.set(true)
        Thread.detachNewThread {
            let copy = self.numbers
            var total = 0
            for number in copy { total = self.adder.add(number, to: total) }
            DispatchQueue.main.async {
                self.screen.total.setText(String(total))
                self.screen.recalculating.set(false)
            }
        }
    }
}
