// WRONG: the delay is set before the start and the total is read only after the end, but the
// controller hands its one formatter to every operation: two sums that format at once share its buffer.
import Foundation
import LabKit
import PropertyStrategies

final class PropertyStrategiesWrongSharedFormatterSum: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    private let interNumberDelay: Int
    private let formatter: PropertyStrategiesFormatter
    private(set) var formattedTotal: String?

    init(numbers: [Int], adder: SlowAdder, interNumberDelay: Int, formatter: PropertyStrategiesFormatter) {
        self.numbers = numbers
        self.adder = adder
        self.interNumberDelay = interNumberDelay
        self.formatter = formatter
    }

    override func main() {
        var sum = 0
        for number in numbers {
            if isCancelled { return }
            if interNumberDelay > 0 { usleep(useconds_t(interNumberDelay * 1000)) }
            sum = adder.add(number, to: sum)
        }
        formattedTotal = formatter.string(from: sum)
    }
}

final class PropertyStrategiesWrongSharedFormatter: PropertyStrategiesController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private let formatter = PropertyStrategiesFormatter()
    private var slowMotion = 0
    private var inProgress: PropertyStrategiesWrongSharedFormatterSum?
    private var shown: String?

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        inProgress?.cancel()
        let operation = PropertyStrategiesWrongSharedFormatterSum(numbers: numbers, adder: adder, interNumberDelay: slowMotion, formatter: formatter)
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
        if let shown { screen.total.setText(shown) }
    }

    private func finished(_ operation: PropertyStrategiesWrongSharedFormatterSum) {
        guard operation === inProgress, let text = operation.formattedTotal else { return }
        inProgress = nil
        shown = text
        screen.total.setText(text)
        screen.recalculating.set(false)
    }
}
