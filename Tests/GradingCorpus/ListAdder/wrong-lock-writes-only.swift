// WRONG: every change of the list is locked, but the worker reads it without the lock: a lock
// that only one side takes orders nothing.
import Foundation
import LabKit
import ListAdder

final class ListAdderWrongLockWritesOnly: ListAdderController {
    private var numbers: [Int]
    private let lock = NSLock()
    private let screen: TotalScreen
    private let adder: SlowAdder

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) { lock.withLock { numbers.append(number) }; recalculate() }
    func remove(at index: Int) { lock.withLock { _ = numbers.remove(at: index) }; recalculate() }
    func removeAll(keepingFirst count: Int) { lock.withLock { numbers.removeSubrange(count...) }; recalculate() }

    private func recalculate() {
        screen.recalculating.set(true)
        Thread.detachNewThread {
            var total = 0
            var index = 0
            while index < self.numbers.count {
                total = self.adder.add(self.numbers[index], to: total)
                index += 1
            }
            DispatchQueue.main.async {
                self.screen.total.setText(String(total))
                self.screen.recalculating.set(false)
            }
        }
    }
}
