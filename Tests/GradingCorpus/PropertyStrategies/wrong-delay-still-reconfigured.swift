// WRONG: each sum has its own formatter and hands its total over at the end, but a new slow-motion
// setting is still written into the running operation, which reads it between two numbers.
import Foundation
import LabKit
import PropertyStrategies

final class PropertyStrategiesWrongDelayStillReconfiguredSum: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    var interNumberDelay = 0
    private(set) var formattedTotal: String?

    init(numbers: [Int], adder: SlowAdder) {
        self.numbers = numbers
        self.adder = adder
    }

    override func main() {
        let formatter = PropertyStrategiesFormatter()
        var sum = 0
        for number in numbers {
            if isCancelled { return }
            if interNumberDelay > 0 { usleep(useconds_t(interNumberDelay * 1000)) }
            sum = adder.add(number, to: sum)
        }
        formattedTotal = formatter.string(from: sum)
    }
}

final class PropertyStrategiesWrongDelayStillReconfigured: PropertyStrategiesController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var slowMotion = 0
    private var inProgress: PropertyStrategiesWrongDelayStillReconfiguredSum?
    private var shown: String?

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        inProgress?.cancel()
        let operation = PropertyStrategiesWrongDelayStillReconfiguredSum(numbers: numbers, adder: adder)
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
        inProgress?.interNumberDelay = milliseconds
    }

    func refresh() {
        if let shown { screen.total.setText(shown) }
    }

    private func finished(_ operation: PropertyStrategiesWrongDelayStillReconfiguredSum) {
        guard operation === inProgress, let text = operation.formattedTotal else { return }
        inProgress = nil
        shown = text
        screen.total.setText(text)
        screen.recalculating.set(false)
    }
}
