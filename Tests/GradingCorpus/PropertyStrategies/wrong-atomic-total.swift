// WRONG: the running total is an "atomic" property (each read and write under a lock), so there is
// no data race; but refresh() still shows a running sum's total: half a sum, which no list had.
import Foundation
import LabKit
import PropertyStrategies

final class PropertyStrategiesWrongAtomicTotalSum: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    private let interNumberDelay: Int
    private let lock = NSLock()
    private var runningTotal = 0  // under `lock`
    private(set) var formattedTotal: String?

    var total: Int { lock.withLock { runningTotal } }

    init(numbers: [Int], adder: SlowAdder, interNumberDelay: Int) {
        self.numbers = numbers
        self.adder = adder
        self.interNumberDelay = interNumberDelay
    }

    override func main() {
        let formatter = PropertyStrategiesFormatter()
        for number in numbers {
            if isCancelled { return }
            if interNumberDelay > 0 { usleep(useconds_t(interNumberDelay * 1000)) }
            let next = adder.add(number, to: total)
            lock.withLock { runningTotal = next }
        }
        formattedTotal = formatter.string(from: total)
    }
}

final class PropertyStrategiesWrongAtomicTotal: PropertyStrategiesController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var slowMotion = 0
    private var inProgress: PropertyStrategiesWrongAtomicTotalSum?
    private var shown: String?

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        inProgress?.cancel()
        let operation = PropertyStrategiesWrongAtomicTotalSum(numbers: numbers, adder: adder, interNumberDelay: slowMotion)
        operation.completionBlock = { [weak self, weak operation] in
            guard let operation else { return }
            OperationQueue.main.addOperation { self?.finished(operation) }
        }
        inProgress = operation
        screen.recalculating.set(true)
        queue.addOperation(operation)
    }

    func setSlowMotion(milliseconds: Int) {
        slowMotion = milliseconds
    }

    func refresh() {
        if let operation = inProgress {
            screen.total.setText(PropertyStrategiesFormatter().string(from: operation.total))
        } else if let shown {
            screen.total.setText(shown)
        }
    }

    private func finished(_ operation: PropertyStrategiesWrongAtomicTotalSum) {
        guard operation === inProgress, let text = operation.formattedTotal else { return }
        inProgress = nil
        shown = text
        screen.total.setText(text)
        screen.recalculating.set(false)
    }
}
