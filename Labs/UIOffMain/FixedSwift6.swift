import LabKit
import UIOffMain

/// The same fix in Swift 6 terms (this file is built in the Swift 6 language mode, with every
/// warning an error): the controller belongs to the main actor. Every method and every property
/// of it is then main-thread code *to the compiler*: the sum runs in a detached task (not on the
/// main actor), and the only way back to `show` from there is an `await`, a hop to the main
/// thread that the compiler inserts and checks. Call `show` from the task without it and Swift
/// refuses to compile.
@MainActor
final class UIOffMainFixedMainActor: UIOffMainController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var newest = 0  // which sum is the newest: main actor only, like everything here

    nonisolated init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    // The harness calls this on the main thread; `assumeIsolated` checks that it is (and traps if
    // not) instead of trusting a comment.
    nonisolated func add(_ number: Int) {
        MainActor.assumeIsolated { sum(after: number) }
    }

    private func sum(after number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        newest += 1
        let request = newest
        let numbers = self.numbers, adder = self.adder  // copies: the background task shares nothing mutable
        // This task inherits the main actor: it starts and resumes on the main thread.
        Task { [weak self] in
            let total = await Task.detached {  // the sum itself, off the main thread
                numbers.reduce(0) { adder.add($1, to: $0) }
            }.value
            self?.show(total, for: request)  // FIX: back on the main actor after the await; the compiler put it there.
        }
    }

    private func show(_ total: Int, for request: Int) {
        // Only the newest sum is shown (an older one may finish later: see stale-results).
        guard request == newest else { return }
        screen.total.setText(String(total))  // main actor: the main thread
        screen.recalculating.set(false)
    }
}

extension UIOffMainLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<ListAppEnvironment, UIOffMainController>] {
        [LabVariant(.fixed, name: "fixed-main-actor", runsTasks: true) { UIOffMainFixedMainActor(environment: $0) }]
    }
}
