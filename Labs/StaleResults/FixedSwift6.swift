import LabKit
import StaleResults

/// The technote's tag in Swift 6 terms (this file is built in the Swift 6 language mode, with
/// every warning an error). Each change starts a sum as a `Task`, and the controller keeps the
/// newest one's handle: that handle is the tag. The total comes back to the main actor through an
/// `await`, and there, with no other `await` before the label is set, it is shown only if its
/// sum is still the newest. The controller belongs to the main actor, so the compiler makes sure
/// the tag is only ever read and written on the main thread.
@MainActor
final class StaleResultsFixedSwift6: StaleResultsController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    // FIX: the newest sum, the only one whose total still means anything (main actor only).
    private var newest: Task<Int, Never>?

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
        screen.recalculating.set(true)
        let numbers = self.numbers, adder = self.adder  // a copy: the sum shares nothing that changes
        let sum = Task.detached { numbers.reduce(0) { adder.add($1, to: $0) } }  // off the main actor
        newest = sum
        // This task inherits the main actor: it waits for the sum and resumes on the main thread,
        // and it loads the controller (held weakly) only there.
        Task { [weak self] in
            let total = await sum.value
            self?.show(total, of: sum)
        }
    }

    private func show(_ total: Int, of sum: Task<Int, Never>) {
        // FIX: checked on the main actor as the total lands, not on the worker before it is sent: a
        // change made while the total was on its way has already replaced `newest`.
        guard sum == newest else { return }
        newest = nil
        screen.total.setText(String(total))
        screen.recalculating.set(false)
    }
}

extension StaleResultsLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<ListAppEnvironment, StaleResultsController>] {
        [LabVariant(.fixed, name: "fixed-task-tag", runsTasks: true) { StaleResultsFixedSwift6(environment: $0) }]
    }
}
