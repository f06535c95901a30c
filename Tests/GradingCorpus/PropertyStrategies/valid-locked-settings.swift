// VALID: the delay stays changeable while a sum runs, but behind an NSLock on both sides; each sum
// makes its own formatter; refresh() shows only what a finished sum handed to the main thread.
import Foundation
import LabKit
import PropertyStrategies

final class PropertyStrategiesValidLockedSettingsSum: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    private let lock = NSLock()
    private var delay = 0  // under `lock`
    private(set) var formattedTotal: String?  // written in main(), read after the operation finished

    var interNumberDelay: Int {
        get { lock.withLock { delay } }
        set { lock.withLock { delay = newValue } }
    }

    init(numbers: [Int], adder: SlowAdder) {
        self.numbers = numbers
        self.adder = adder
    }

    override func main() {
        let formatter = PropertyStrategiesFormatter()
        var sum = 0
        for number in numbers {
            if isCancelled { return }
            let pause = interNumberDelay
            if pause > 0 { usleep(useconds_t(pause * 1000)) }
            sum = adder.add(number, to: sum)
        }
        formattedTotal = formatter.string(from: sum)
    }
}

final class PropertyStrategiesValidLockedSettings: PropertyStrategiesController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var slowMotion = 0
    private var inProgress: PropertyStrategiesValidLockedSettingsSum?
    private var shown: String?

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        inProgress?.cancel()
        let operation = PropertyStrategiesValidLockedSettingsSum(numbers: numbers, adder: adder)
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

    private func finished(_ operation: PropertyStrategiesValidLockedSettingsSum) {
        guard operation === inProgress, let text = operation.formattedTotal else { return }
        inProgress = nil
        shown = text
        screen.total.setText(text)
        screen.recalculating.set(false)
    }
}
