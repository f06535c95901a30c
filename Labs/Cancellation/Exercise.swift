import Foundation
import LabKit
import Cancellation

/// Sums a private copy of the list, step by step.
final class CancellationExerciseSumOperation: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    private(set) var total = 0

    init(numbers: [Int], adder: SlowAdder) {
        self.numbers = numbers
        self.adder = adder
    }

    override func main() {
        // TODO: fix this: the loop never asks whether anyone still wants the answer.
        total = numbers.reduce(0) { adder.add($1, to: $0) }
    }
}

/// EXERCISE: a copy of the broken variant. Stop superseded sums early, and never show a cancelled
/// one. Check it with `make check LAB=cancellation`. Keep the class name and actions.
/// Shows only the newest result (the stale-results fix), but lets every older sum run to the end.
final class CancellationExercise: CancellationController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var inProgress: CancellationExerciseSumOperation?  // main thread only

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
        // TODO: fix this: the previous operation is replaced as the tag but never cancelled.
        let operation = CancellationExerciseSumOperation(numbers: numbers, adder: adder)
        operation.completionBlock = { [weak self, weak operation] in
            guard let operation else { return }
            OperationQueue.main.addOperation { [weak self] in self?.finished(operation) }
        }
        inProgress = operation
        screen.recalculating.set(true)
        queue.addOperation(operation)
    }

    private func finished(_ operation: CancellationExerciseSumOperation) {
        guard operation === inProgress else { return }
        inProgress = nil
        screen.total.setText(String(operation.total))
        screen.recalculating.set(false)
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeCancellationExercise(_ environment: ListAppEnvironment) -> CancellationController {
    CancellationExercise(environment: environment)
}
