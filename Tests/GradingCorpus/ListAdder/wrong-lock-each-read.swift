// WRONG: each element is read under the lock, but the count is read once at the start: when the
// user deletes items mid-sum, the loop still runs to the old count and reads past the end (or
// adds a mix of two lists).
import Foundation
import LabKit
import ListAdder

final class ListAdderWrongLockEachRead: ListAdderController {
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
            let count = self.lock.withLock { self.numbers.count }
            var total = 0
            for index in 0..<count {
                let number = self.lock.withLock { index < self.numbers.count ? self.numbers[index] : 0 }
                total = self.adder.add(number, to: total)
            }
            DispatchQueue.main.async {
                self.screen.total.setText(String(total))
                self.screen.recalculating.set(false)
            }
        }
    }
}
