// WRONG: cancels the old sum and checks before every step, but a cancelled sum breaks out of its
// loop and still reports: the controller dropped the "only the newest" check, so a cancelled
// sum's partial total reaches the screen when it finishes last.
import Foundation
import LabKit
import Cancellation

final class CancellationWrongBreakingSum: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    private(set) var total = 0

    init(numbers: [Int], adder: SlowAdder) {
        self.numbers = numbers
        self.adder = adder
    }

    override func main() {
        var sum = 0
        for number in numbers {
            if isCancelled { break }
            sum = adder.add(number, to: sum)
        }
        total = sum
    }
}

final class CancellationWrongShowsCancelledTotal: CancellationController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var inProgress: CancellationWrongBreakingSum?  // main thread only

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
        inProgress?.cancel()
        let operation = CancellationWrongBreakingSum(numbers: numbers, adder: adder)
        operation.completionBlock = { [weak self, weak operation] in
            guard let operation else { return }
            OperationQueue.main.addOperation { [weak self] in self?.finished(operation) }
        }
        inProgress = operation
        screen.recalculating.set(true)
        queue.addOperation(operation)
    }

    private func finished(_ operation: CancellationWrongBreakingSum) {
        // The cancel() above is thought to be enough: every finished sum is shown.
        screen.total.setText(String(operation.total))
        screen.recalculating.set(false)
    }
}
