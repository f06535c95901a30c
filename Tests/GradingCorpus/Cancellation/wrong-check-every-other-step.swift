// WRONG: cancels the old sum, but checks isCancelled only before every other number: cancelled
// right after a check, the sum still takes one whole step more than it was in.
import Foundation
import LabKit
import Cancellation

final class CancellationWrongEveryOtherSum: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    private(set) var total = 0

    init(numbers: [Int], adder: SlowAdder) {
        self.numbers = numbers
        self.adder = adder
    }

    override func main() {
        var sum = 0
        var index = 0
        while index < numbers.count {
            if isCancelled { return }
            sum = adder.add(numbers[index], to: sum)
            if index + 1 < numbers.count { sum = adder.add(numbers[index + 1], to: sum) }
            index += 2
        }
        total = sum
    }
}

final class CancellationWrongCheckEveryOtherStep: CancellationController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var inProgress: CancellationWrongEveryOtherSum?  // main thread only

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
        let operation = CancellationWrongEveryOtherSum(numbers: numbers, adder: adder)
        operation.completionBlock = { [weak self, weak operation] in
            guard let operation else { return }
            OperationQueue.main.addOperation { [weak self] in self?.finished(operation) }
        }
        inProgress = operation
        screen.recalculating.set(true)
        queue.addOperation(operation)
    }

    private func finished(_ operation: CancellationWrongEveryOtherSum) {
        guard operation === inProgress, !operation.isCancelled else { return }
        inProgress = nil
        screen.total.setText(String(operation.total))
        screen.recalculating.set(false)
    }
}
