import Foundation
import LabKit
import StaleResults

/// Sums a private copy of the list; the result is read only after the operation finished.
final class StaleResultsSumOperation: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    private(set) var total = 0

    init(numbers: [Int], adder: SlowAdder) {
        self.numbers = numbers
        self.adder = adder
    }

    override func main() {
        total = numbers.reduce(0) { adder.add($1, to: $0) }
    }
}

/// The technote's tag: the controller remembers the operation it started last, and only that
/// operation may change the screen.
final class StaleResultsFixed: StaleResultsController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    // FIX: the newest recalculation, the only one whose result still means anything.
    // Read and written on the main thread only, so it needs no lock.
    private var inProgress: StaleResultsSumOperation?

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
        screen.recalculating.set(true)
        let operation = StaleResultsSumOperation(numbers: numbers, adder: adder)
        operation.completionBlock = { [weak self, weak operation] in
            guard let operation else { return }
            // The weak self is passed on, not loaded: only the main thread ever holds the controller
            // strongly (a `[weak self]` here would load it for a moment, on this thread).
            OperationQueue.main.addOperation { self?.finished(operation) }
        }
        inProgress = operation
        queue.addOperation(operation)
    }

    private func finished(_ operation: StaleResultsSumOperation) {
        // FIX: a result from any operation but the newest is stale: drop it.
        guard operation === inProgress else { return }
        inProgress = nil
        screen.total.setText(String(operation.total))
        screen.recalculating.set(false)
    }
}

extension StaleResultsLab {
    public static var solutions: [LabVariant<ListAppEnvironment, StaleResultsController>] {
        [LabVariant(.fixed) { StaleResultsFixed(environment: $0) }]
    }
}
