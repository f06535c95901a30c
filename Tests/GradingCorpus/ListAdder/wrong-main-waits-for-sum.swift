// WRONG: the sum runs on a thread, but the main thread waits for it (a semaphore): the worker's
// reads of the live list are only safe because the screen is frozen meanwhile.
import Foundation
import LabKit
import ListAdder

final class ListAdderWrongMainWaitsForSum: ListAdderController {
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
        // The sum runs on a worker (every step off main) while main waits for it: no race on
        // numbers left, because the main thread cannot change it meanwhile; the screen is frozen.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result = 0
        Thread.detachNewThread {
            var total = 0
            for number in self.numbers { total = self.adder.add(number, to: total) }
            result = total
            done.signal()
        }
        done.wait()
        screen.total.setText(String(result))
        screen.recalculating.set(false)
    }
}
