import LabKit
import ListAdder

/// The same fix in Swift 6 terms (this file is built in the Swift 6 language mode, with every
/// warning an error): the controller belongs to the main actor, so its list is main-actor state
/// and the compiler refuses any read of it from the background. The sum is a detached task: it
/// runs off the main actor and sees only what it is handed, a copy of the list (an `[Int]` is a
/// value, and `Sendable`). Each change cancels the sum before it, and only the newest sum's total
/// is shown, on the main actor.
@MainActor
final class ListAdderFixedSwift6: ListAdderController {
    private var numbers: [Int]  // main actor only: the compiler enforces it
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var recalculation: Task<Int?, Never>?  // the newest sum

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

    nonisolated func remove(at index: Int) {
        MainActor.assumeIsolated {
            numbers.remove(at: index)
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
        recalculation?.cancel()  // the sum of the list before this change is of no use now
        screen.recalculating.set(true)
        let numbers = self.numbers, adder = self.adder  // FIX: the sum gets its own copy of the list.
        // FIX: a detached task runs off the main actor, so it cannot read `self.numbers` (main-actor
        // state; the compiler refuses): it adds up the copy it was handed.
        let sum = Task.detached { () -> Int? in
            var total = 0
            for number in numbers {
                if Task.isCancelled { return nil }  // a newer list is waiting: stop before the next step
                total = adder.add(number, to: total)
            }
            return total
        }
        recalculation = sum
        // This task inherits the main actor: it waits for the sum and resumes on the main thread,
        // and it loads the controller (held weakly) only there.
        Task { [weak self] in
            let total = await sum.value
            self?.show(total, of: sum)
        }
    }

    private func show(_ total: Int?, of sum: Task<Int?, Never>) {
        // FIX: only the newest sum may show its total (main actor: no change can come in between).
        guard sum == recalculation, let total else { return }
        recalculation = nil
        screen.total.setText(String(total))
        screen.recalculating.set(false)
    }
}

extension ListAdderLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<ListAppEnvironment, ListAdderController>] {
        [LabVariant(.fixed, name: "fixed-main-actor", runsTasks: true) { ListAdderFixedSwift6(environment: $0) }]
    }
}
