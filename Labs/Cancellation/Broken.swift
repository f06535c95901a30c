import Foundation
import LabKit

/// Sums a private copy of the list, step by step.
final class CancellationSumOperation: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    private(set) var total = 0

    init(numbers: [Int], adder: SlowAdder) {
        self.numbers = numbers
        self.adder = adder
    }

    override func main() {
        // BUG: the loop never asks whether anyone still wants the answer.
        total = numbers.reduce(0) { adder.add($1, to: $0) }
    }
}

/// Shows only the newest result (the stale-results fix), but lets every older sum run to the end.
final class CancellationBroken: CancellationController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var inProgress: CancellationSumOperation?  // main thread only

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
        // BUG: the previous operation is replaced as the tag but never cancelled.
        let operation = CancellationSumOperation(numbers: numbers, adder: adder)
        operation.completionBlock = { [weak self, weak operation] in
            guard let operation else { return }
            OperationQueue.main.addOperation { [weak self] in self?.finished(operation) }
        }
        inProgress = operation
        screen.recalculating.set(true)
        queue.addOperation(operation)
    }

    private func finished(_ operation: CancellationSumOperation) {
        guard operation === inProgress else { return }
        inProgress = nil
        screen.total.setText(String(operation.total))
        screen.recalculating.set(false)
    }
}
