import Foundation
import LabKit
import PropertyStrategies

/// The technote's AdderOperation, with a thread-safety strategy for every property.
final class PropertyStrategiesFixedSum: Operation, @unchecked Sendable {
    /// Immutability: set in init, never changed.
    let numbers: [Int]
    private let adder: SlowAdder
    /// Configuration time only: set in init, before the operation can start; never changed
    /// after. (A `let` makes the compiler hold the rule.)
    let interNumberDelay: Int  // FIX: fixed before the start; a new setting is for the next sum.
    /// Serial thread confinement: written by `main()` alone, read by others only once the
    /// operation finished (the completion block hops to the main thread first).
    private(set) var total = 0
    private(set) var formattedTotal: String?

    init(numbers: [Int], adder: SlowAdder, interNumberDelay: Int) {
        self.numbers = numbers
        self.adder = adder
        self.interNumberDelay = interNumberDelay
    }

    override func main() {
        // FIX: thread confinement: this operation's own formatter, made and used on its thread.
        let formatter = PropertyStrategiesFormatter()
        var sum = 0  // FIX: a local while it runs; the property is set once, at the end.
        for number in numbers {
            if isCancelled { return }
            if interNumberDelay > 0 { usleep(useconds_t(interNumberDelay * 1000)) }
            sum = adder.add(number, to: sum)
        }
        total = sum
        formattedTotal = formatter.string(from: sum)
    }
}

/// The list screen: what the main thread shows is what finished operations handed it.
final class PropertyStrategiesFixed: PropertyStrategiesController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var slowMotion = 0  // main thread only
    private var inProgress: PropertyStrategiesFixedSum?  // main thread only
    private var newestTotal: String?  // main thread only: the newest finished total

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        inProgress?.cancel()
        let operation = PropertyStrategiesFixedSum(numbers: numbers, adder: adder, interNumberDelay: slowMotion)
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

    func setSlowMotion(milliseconds: Int) {
        slowMotion = milliseconds  // FIX: for the sums started from now on; a running one keeps its pace.
    }

    func refresh() {
        // FIX: the newest total a finished operation handed over, never a running one's.
        if let newestTotal { screen.total.setText(newestTotal) }
    }

    private func finished(_ operation: PropertyStrategiesFixedSum) {
        guard operation === inProgress, let text = operation.formattedTotal else { return }
        inProgress = nil
        newestTotal = text
        screen.total.setText(text)
        screen.recalculating.set(false)
    }
}

extension PropertyStrategiesLab {
    public static var solutions: [LabVariant<ListAppEnvironment, PropertyStrategiesController>] {
        [LabVariant(.fixed) { PropertyStrategiesFixed(environment: $0) }]
    }
}
