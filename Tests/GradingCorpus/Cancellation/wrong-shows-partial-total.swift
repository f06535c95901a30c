// WRONG: cancels the old sum and checks before every step, but a cancelled sum keeps its
// partial total and the controller shows any result newer than the one on screen: while the
// newest sum is still adding, a cancelled sum's partial total is on the screen.
import Foundation
import LabKit
import Cancellation

final class CancellationWrongPartialSum: Operation, @unchecked Sendable {
    let generation: Int
    private let numbers: [Int]
    private let adder: SlowAdder
    private(set) var total = 0

    init(generation: Int, numbers: [Int], adder: SlowAdder) {
        self.generation = generation
        self.numbers = numbers
        self.adder = adder
    }

    override func main() {
        for number in numbers {
            if isCancelled { break }  // stop adding: nobody wants the rest
            total = adder.add(number, to: total)
        }
    }
}

final class CancellationWrongShowsPartialTotal: CancellationController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var inProgress: CancellationWrongPartialSum?  // main thread only
    private var generation = 0                          // main thread only
    private var shownGeneration = 0                     // main thread only

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        recalculate()
    }

    func removeAll(keepingFirst count: Int) {
        numbers.removeSubrange(count...)
        recalculate()
    }

    private func recalculate() {
        inProgress?.cancel()
        generation += 1
        let operation = CancellationWrongPartialSum(generation: generation, numbers: numbers, adder: adder)
        operation.completionBlock = { [weak self, weak operation] in
            guard let operation else { return }
            OperationQueue.main.addOperation { [weak self] in self?.finished(operation) }
        }
        inProgress = operation
        screen.recalculating.set(true)
        queue.addOperation(operation)
    }

    private func finished(_ operation: CancellationWrongPartialSum) {
        // Never go back to an older result than the one on screen.
        guard operation.generation > shownGeneration else { return }
        shownGeneration = operation.generation
        screen.total.setText(String(operation.total))
        if operation === inProgress {
            inProgress = nil
            screen.recalculating.set(false)
        }
    }
}
