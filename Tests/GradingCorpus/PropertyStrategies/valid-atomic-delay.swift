// VALID: the slow-motion delay is an Atomic, read before each step (a running sum may change
// pace half way: harmless here, the lesson says, like a lock around it); the other properties
// have their strategies.
import Foundation
import LabKit
import PropertyStrategies
import Synchronization

/// Each operation has its own formatter; the total is read only once finished. The slow-motion
/// setting is an atomic that the controller still changes while the operation runs.
final class PropertyStrategiesValidAtomicDelaySum: Operation, @unchecked Sendable {
    let numbers: [Int]
    private let adder: SlowAdder
    let interNumberDelay = Atomic<Int>(0)  // changed by the controller while the sum runs
    private let formatter = PropertyStrategiesFormatter()
    private var total = 0  // the operation's thread only
    private(set) var formattedTotal: String?  // read only once finished

    init(numbers: [Int], adder: SlowAdder) {
        self.numbers = numbers
        self.adder = adder
    }

    override func main() {
        for number in numbers {
            if isCancelled { return }
            let delay = interNumberDelay.load(ordering: .relaxed)
            if delay > 0 { usleep(useconds_t(delay * 1000)) }
            total = adder.add(number, to: total)
        }
        formattedTotal = formatter.string(from: total)
    }
}

final class PropertyStrategiesValidAtomicDelay: PropertyStrategiesController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var slowMotion = 0
    private var inProgress: PropertyStrategiesValidAtomicDelaySum?  // main thread only
    private var lastText: String?  // main thread only

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        inProgress?.cancel()
        let operation = PropertyStrategiesValidAtomicDelaySum(numbers: numbers, adder: adder)
        operation.interNumberDelay.store(slowMotion, ordering: .relaxed)
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
        inProgress?.interNumberDelay.store(milliseconds, ordering: .relaxed)
    }

    func refresh() {
        if let lastText { screen.total.setText(lastText) }
    }

    private func finished(_ operation: PropertyStrategiesValidAtomicDelaySum) {
        guard operation === inProgress, let text = operation.formattedTotal else { return }
        inProgress = nil
        lastText = text
        screen.total.setText(text)
        screen.recalculating.set(false)
    }
}
