import Foundation
import LabKit
import PropertyStrategies

// EXERCISE: a copy of the broken variant. Give every property of the operation a thread-safety
// strategy, and keep to it: what is set before the start is never changed after it, what the
// operation works out is read only once it finished, and nothing is shared between operations
// that is not safe to share. Check it with `make check LAB=property-strategies`.
// Keep the class name PropertyStrategiesExercise and the three methods of
// PropertyStrategiesController; change anything else.

/// The technote's AdderOperation, written without asking, property by property, who may touch
/// it and when.
final class PropertyStrategiesExerciseSum: Operation, @unchecked Sendable {
    let numbers: [Int]  // immutable: set in init, never changed (this one is right)
    private let adder: SlowAdder
    // TODO: fix this: a setting meant for before the start, which the controller also changes while the
    // operation runs and reads it between two numbers.
    var interNumberDelay = 0
    // TODO: fix this: the controller's own formatter, shared by every operation it starts.
    let formatter: PropertyStrategiesFormatter
    // TODO: fix this: the running total, written as the sum goes and read by the main thread before the
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
final class PropertyStrategiesExercise: PropertyStrategiesController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private let formatter = PropertyStrategiesFormatter()  // TODO: fix this: one formatter for every operation, on every thread.
    private var slowMotion = 0
    private var inProgress: PropertyStrategiesExerciseSum?  // main thread only

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        inProgress?.cancel()
        let operation = PropertyStrategiesExerciseSum(numbers: numbers, adder: adder, formatter: formatter)
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
        inProgress?.interNumberDelay = milliseconds  // TODO: fix this: reconfigures an operation that may be running.
    }

    func refresh() {
        // TODO: fix this: the running operation's total, read before it finished: a part of a sum.
        if let operation = inProgress { screen.total.setText(formatter.string(from: operation.total)) }
    }

    private func finished(_ operation: PropertyStrategiesExerciseSum) {
        guard operation === inProgress, let text = operation.formattedTotal else { return }
        inProgress = nil
        screen.total.setText(text)
        screen.recalculating.set(false)
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makePropertyStrategiesExercise(_ environment: ListAppEnvironment) -> PropertyStrategiesController {
    PropertyStrategiesExercise(environment: environment)
}
