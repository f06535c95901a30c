// WRONG: cancels the old sum, but the sum looks at isCancelled only every third number ("checking
// is not free"): a cancelled sum can still take two more steps. It narrows the waste, it does not
// stop it.
import Foundation
import LabKit
import Cancellation

final class CancellationWrongEveryThirdSum: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    private(set) var total = 0

    init(numbers: [Int], adder: SlowAdder) {
        self.numbers = numbers
        self.adder = adder
    }

    override func main() {
        var sum = 0
        for (index, number) in numbers.enumerated() {
            if index % 3 == 0 && isCancelled { return }
            sum = adder.add(number, to: sum)
        }
        total = sum
    }
}

final class CancellationWrongCheckEveryThirdStep: CancellationController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var inProgress: CancellationWrongEveryThirdSum?  // main thread only

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
        let operation = CancellationWrongEveryThirdSum(numbers: numbers, adder: adder)
        operation.completionBlock = { [weak self, weak operation] in
            guard let operation else { return }
            OperationQueue.main.addOperation { [weak self] in self?.finished(operation) }
        }
        inProgress = operation
        screen.recalculating.set(true)
        queue.addOperation(operation)
    }

    private func finished(_ operation: CancellationWrongEveryThirdSum) {
        guard operation === inProgress, !operation.isCancelled else { return }
        inProgress = nil
        screen.total.setText(String(operation.total))
        screen.recalculating.set(false)
    }
}
