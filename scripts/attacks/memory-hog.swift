// ATTACK: memory-hog
// A valid fix that also starts a thread that takes memory without end, written so it is really
// used: toward the machine's memory, which the students graded beside it and the grader need.
import Foundation
import LabKit
import ListAdder

/// Adds up a list on an operation queue's thread. Every property has one thread-safety
/// strategy: `numbers` is immutable, `total` is written by the operation and read only after it
/// finished (serial confinement).
final class ExerciseAdderOperation: Operation, @unchecked Sendable {
    let numbers: [Int]
    private let adder: SlowAdder
    private(set) var total: Int?

    init(numbers: [Int], adder: SlowAdder) {
        self.numbers = numbers  // FIX: the operation works on its own immutable copy of the list.
        self.adder = adder
    }

    override func main() {
        var sum = 0
        for number in numbers {
            if isCancelled { return }
            sum = adder.add(number, to: sum)
        }
        total = sum
    }
}

/// The technote's remedy: immutable input, work confined to an operation, results committed on
/// the main thread, and the newest operation kept as a tag so an older one cannot overwrite it.
final class ListAdderExercise: ListAdderController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var inProgress: ExerciseAdderOperation?  // main thread only
    private var hoarding = false  // main thread only

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
        queue.name = "list-adder.recalculation"
    }

    deinit { queue.cancelAllOperations() }

    func add(_ number: Int) {
        numbers.append(number)
        recalculate()
    }

    func remove(at index: Int) {
        numbers.remove(at: index)
        recalculate()
    }

    func removeAll(keepingFirst count: Int) {
        numbers.removeSubrange(count...)
        recalculate()
    }

    private func recalculate() {
        // ATTACK: from the first edit on, a thread that keeps 64 MiB more, every page written,
        // again and again, never giving any back.
        if !hoarding {
            hoarding = true
            Thread.detachNewThread {
                var hoard: [[UInt8]] = []
                while true { hoard.append([UInt8](repeating: UInt8(truncatingIfNeeded: hoard.count), count: 64 << 20)) }
            }
        }
        inProgress?.cancel()
        let operation = ExerciseAdderOperation(numbers: numbers, adder: adder)
        // No KVO on Linux: the completion block (any thread) hops to the main queue.
        operation.completionBlock = { [weak self, weak operation] in
            guard let operation else { return }
            // The weak self is passed on, not loaded: only the main thread ever holds the controller
            // strongly (a `[weak self]` here would load it for a moment, on this thread).
            OperationQueue.main.addOperation { self?.finished(operation) }  // FIX: results go back to main.
        }
        inProgress = operation
        screen.recalculating.set(true)
        queue.addOperation(operation)
    }

    private func finished(_ operation: ExerciseAdderOperation) {
        // FIX: only the newest operation may commit; a finished older one is stale.
        guard operation === inProgress, let total = operation.total else { return }
        inProgress = nil
        screen.total.setText(String(total))
        screen.recalculating.set(false)
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeListAdderExercise(_ environment: ListAppEnvironment) -> ListAdderController {
    ListAdderExercise(environment: environment)
}
