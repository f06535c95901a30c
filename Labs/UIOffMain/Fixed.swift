import Foundation
import LabKit
import UIOffMain

/// Sums a private copy of the list on an operation queue's thread; keeps the result to itself
/// until it finished.
final class UIOffMainSumOperation: Operation, @unchecked Sendable {
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

/// The work stays in the background; everything that touches the screen runs on main.
final class UIOffMainFixed: UIOffMainController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var inProgress: UIOffMainSumOperation?  // main thread only

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        let operation = UIOffMainSumOperation(numbers: numbers, adder: adder)
        operation.completionBlock = { [weak self, weak operation] in
            guard let operation else { return }
            // FIX: the completion block runs on a background thread; hop to the main queue
            // before touching the screen.
            // The weak self is passed on, not loaded: only the main thread ever holds the controller
            // strongly (a `[weak self]` here would load it for a moment, on this thread).
            OperationQueue.main.addOperation { self?.show(operation) }
        }
        inProgress = operation
        queue.addOperation(operation)
    }

    private func show(_ operation: UIOffMainSumOperation) {
        // Only the newest sum is shown (an older one may finish later: see stale-results).
        guard operation === inProgress else { return }
        inProgress = nil
        screen.total.setText(String(operation.total))  // on the main thread
        screen.recalculating.set(false)
    }
}

extension UIOffMainLab {
    public static var solutions: [LabVariant<ListAppEnvironment, UIOffMainController>] {
        [LabVariant(.fixed) { UIOffMainFixed(environment: $0) }]
    }
}
