// WRONG: cancels the old sum, but the sum checks isCancelled only once, before it begins: a sum
// that is already running when it is cancelled runs to its end anyway.
import Foundation
import LabKit
import Cancellation

final class CancellationWrongStartCheckSum: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    private(set) var total = 0

    init(numbers: [Int], adder: SlowAdder) {
        self.numbers = numbers
        self.adder = adder
    }

    override func main() {
        if isCancelled { return }
        total = numbers.reduce(0) { adder.add($1, to: $0) }
    }
}

final class CancellationWrongCheckAtStart: CancellationController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var inProgress: CancellationWrongStartCheckSum?  // main thread only

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
        let operation = CancellationWrongStartCheckSum(numbers: numbers, adder: adder)
        operation.completionBlock = { [weak self, weak operation] in
            guard let operation else { return }
            OperationQueue.main.addOperation { [weak self] in self?.finished(operation) }
        }
        inProgress = operation
        screen.recalculating.set(true)
        queue.addOperation(operation)
    }

    private func finished(_ operation: CancellationWrongStartCheckSum) {
        guard operation === inProgress, !operation.isCancelled else { return }
        inProgress = nil
        screen.total.setText(String(operation.total))
        screen.recalculating.set(false)
    }
}
