import Foundation
import LabKit
import Cancellation

/// The same fix in Swift 6 terms (this file is built in the Swift 6 language mode, with every
/// warning an error): the controller belongs to the main actor, each recalculation is a `Task`,
/// and `cancel()` on that task is the whole of "stop". The compiler checks what
/// `CancellationFixed`'s comments only say.
@MainActor
final class CancellationFixedTask: CancellationController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var inProgress: Task<Int?, Never>?  // main actor only: the compiler enforces it

    nonisolated init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    // The harness calls these on the main thread; `assumeIsolated` checks that it is (and traps if
    // not) instead of trusting a comment.
    nonisolated func add(_ number: Int) {
        MainActor.assumeIsolated {
            numbers.append(number)
            recalculate()
        }
    }

    nonisolated func removeAll(keepingFirst count: Int) {
        MainActor.assumeIsolated {
            numbers.removeSubrange(count...)
            recalculate()
        }
    }

    private func recalculate() {
        // FIX: cancel the task whose result nobody will see; its loop checks before every step.
        inProgress?.cancel()
        let numbers = self.numbers, adder = self.adder  // a copy: the task shares nothing mutable
        let sum = Task.detached { () -> Int? in
            var total = 0
            for number in numbers {
                if Task.isCancelled { return nil }  // FIX: a cancelled sum starts no other step.
                total = adder.add(number, to: total)
            }
            return total
        }
        inProgress = sum
        screen.recalculating.set(true)
        // Waits on the main actor (this task inherits it): the controller is only ever loaded,
        // and so only ever released, on the main thread.
        Task { [weak self] in
            let total = await sum.value
            self?.finished(sum, total: total)
        }
    }

    private func finished(_ sum: Task<Int?, Never>, total: Int?) {
        // A cancelled or superseded sum is never the newest one, so its result never shows.
        guard sum == inProgress, let total else { return }
        inProgress = nil
        screen.total.setText(String(total))
        screen.recalculating.set(false)
    }
}

extension CancellationLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<ListAppEnvironment, CancellationController>] {
        [LabVariant(.fixed, name: "fixed-task", runsTasks: true) { CancellationFixedTask(environment: $0) }]
    }
}
