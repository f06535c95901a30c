import Foundation
import LabKit

/// The technote's AdderOperation, written without asking, property by property, who may touch
/// it and when.
final class PropertyStrategiesSum: Operation, @unchecked Sendable {
    let numbers: [Int]  // immutable: set in init, never changed (this one is right)
    private let adder: SlowAdder
    // BUG: a setting meant for before the start, which the controller also changes while the
    // operation runs and reads it between two numbers.
    var interNumberDelay = 0
    // BUG: the controller's own formatter, shared by every operation it starts.
    let formatter: PropertyStrategiesFormatter
    // BUG: the running total, written as the sum goes and read by the main thread before the
    // operation finished.
    var total = 0
    var formattedTotal: String?

    init(numbers: [Int], adder: SlowAdder, formatter: PropertyStrategiesFormatter) {
        self.numbers = numbers
        self.adder = adder
        self.formatter = formatter
    }

    override func main() {
        for number in numbers {
            if isCancelled { return }
            if interNumberDelay > 0 { usleep(useconds_t(interNumberDelay * 1000)) }
            total = adder.add(number, to: total)
        }
        formattedTotal = formatter.string(from: total)
    }
}

/// The list screen: each change starts a new sum; the newest one's total is shown.
final class PropertyStrategiesBroken: PropertyStrategiesController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private let formatter = PropertyStrategiesFormatter()  // BUG: one formatter for every operation, on every thread.
    private var slowMotion = 0
    private var inProgress: PropertyStrategiesSum?  // main thread only

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        inProgress?.cancel()
        let operation = PropertyStrategiesSum(numbers: numbers, adder: adder, formatter: formatter)
        operation.interNumberDelay = slowMotion
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
        inProgress?.interNumberDelay = milliseconds  // BUG: reconfigures an operation that may be running.
    }

    func refresh() {
        // BUG: the running operation's total, read before it finished: a part of a sum.
        if let operation = inProgress { screen.total.setText(formatter.string(from: operation.total)) }
    }

    private func finished(_ operation: PropertyStrategiesSum) {
        guard operation === inProgress, let text = operation.formattedTotal else { return }
        inProgress = nil
        screen.total.setText(text)
        screen.recalculating.set(false)
    }
}
