// VALID: one formatter per thread, kept in the thread's dictionary (a thread runs one operation at
// a time); the delay is set before the start only; the total is a local until the end.
import Foundation
import LabKit
import PropertyStrategies

final class PropertyStrategiesValidFormatterPerThreadSum: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    private let interNumberDelay: Int
    private(set) var formattedTotal: String?

    init(numbers: [Int], adder: SlowAdder, interNumberDelay: Int) {
        self.numbers = numbers
        self.adder = adder
        self.interNumberDelay = interNumberDelay
    }

    private static var threadFormatter: PropertyStrategiesFormatter {
        let key = "property-strategies.formatter"
        if let formatter = Thread.current.threadDictionary[key] as? PropertyStrategiesFormatter { return formatter }
        let formatter = PropertyStrategiesFormatter()
        Thread.current.threadDictionary[key] = formatter
        return formatter
    }

    override func main() {
        var sum = 0
        for number in numbers {
            if isCancelled { return }
            if interNumberDelay > 0 { usleep(useconds_t(interNumberDelay * 1000)) }
            sum = adder.add(number, to: sum)
        }
        formattedTotal = Self.threadFormatter.string(from: sum)
    }
}

final class PropertyStrategiesValidFormatterPerThread: PropertyStrategiesController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var slowMotion = 0
    private var inProgress: PropertyStrategiesValidFormatterPerThreadSum?
    private var shown: String?

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        inProgress?.cancel()
        let operation = PropertyStrategiesValidFormatterPerThreadSum(numbers: numbers, adder: adder, interNumberDelay: slowMotion)
        operation.completionBlock = { [weak self, weak operation] in
            guard let operation else { return }
            OperationQueue.main.addOperation { self?.finished(operation) }
        }
        inProgress = operation
        screen.recalculating.set(true)
        queue.addOperation(operation)
    }

    func setSlowMotion(milliseconds: Int) { slowMotion = milliseconds }

    func refresh() {
        if let shown { screen.total.setText(shown) }
    }

    private func finished(_ operation: PropertyStrategiesValidFormatterPerThreadSum) {
        guard operation === inProgress, let text = operation.formattedTotal else { return }
        inProgress = nil
        shown = text
        screen.total.setText(text)
        screen.recalculating.set(false)
    }
}
