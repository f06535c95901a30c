import Foundation
import LabKit
import Cancellation

/// Sums a private copy of the list and stops as soon as it is cancelled.
final class CancellationStoppableSum: Operation, @unchecked Sendable {
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
            // FIX: check before every step; `isCancelled` is safe to read from any thread.
            if isCancelled { return }
            sum = adder.add(number, to: sum)
        }
        total = sum
    }
}

/// Cancels the recalculation it replaces; a cancelled operation never reaches the screen.
final class CancellationFixed: CancellationController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var inProgress: CancellationStoppableSum?  // main thread only

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
        // FIX: the old result is useless now, so tell the old operation to stop.
        inProgress?.cancel()
        let operation = CancellationStoppableSum(numbers: numbers, adder: adder)
        operation.completionBlock = { [weak self, weak operation] in
            guard let operation else { return }
            // The weak self is passed on, not loaded: only the main thread ever holds the controller
            // strongly (a `[weak self]` here would load it for a moment, on this thread).
            OperationQueue.main.addOperation { self?.finished(operation) }
        }
        inProgress = operation
        screen.recalculating.set(true)
        queue.addOperation(operation)
    }

    private func finished(_ operation: CancellationStoppableSum) {
        // A cancelled operation is never the newest, so its partial total never shows.
        guard operation === inProgress, !operation.isCancelled else { return }
        inProgress = nil
        screen.total.setText(String(operation.total))
        screen.recalculating.set(false)
    }
}

extension CancellationLab {
    public static var solutions: [LabVariant<ListAppEnvironment, CancellationController>] {
        [LabVariant(.fixed) { CancellationFixed(environment: $0) }]
    }
}
