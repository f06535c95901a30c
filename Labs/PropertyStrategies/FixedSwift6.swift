import Foundation
import LabKit
import PropertyStrategies

/// The same strategies in Swift 6 terms (this file is built in the Swift 6 language mode): no
/// operation object with properties to guard at all. The controller is `@MainActor`: its list,
/// its setting and the newest total are main-actor state, and the compiler holds every access to
/// that. A sum is a `Task` handed copies (the numbers, the pace, the adder, all `Sendable`); it
/// does its adding off the main actor with a formatter of its own, and comes back to the main
/// actor with its finished text.
@MainActor
final class PropertyStrategiesFixedSwift6: PropertyStrategiesController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var slowMotion = 0
    private var inProgress: Task<Void, Never>?
    private var newest = 0  // which sum is the newest
    private var newestTotal: String?  // the newest finished total

    nonisolated init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    // The harness calls these on the main thread; `assumeIsolated` checks that it is (and traps
    // if not) instead of trusting a comment.
    nonisolated func add(_ number: Int) {
        MainActor.assumeIsolated { startSum(after: number) }
    }

    nonisolated func setSlowMotion(milliseconds: Int) {
        // FIX: main-actor state, for the sums started from now on; a running sum has its own copy.
        MainActor.assumeIsolated { slowMotion = milliseconds }
    }

    nonisolated func refresh() {
        MainActor.assumeIsolated {
            // FIX: only a finished sum's total; a running sum shares nothing to read.
            if let newestTotal { screen.total.setText(newestTotal) }
        }
    }

    private func startSum(after number: Int) {
        numbers.append(number)
        inProgress?.cancel()
        newest += 1
        let request = newest
        // FIX: copies, fixed before the sum starts: the task can see nothing the main actor changes.
        let numbers = self.numbers, adder = self.adder, pace = slowMotion
        screen.recalculating.set(true)
        // This task inherits the main actor: it starts and resumes on the main thread.
        inProgress = Task { [weak self] in
            let text = await Self.sum(numbers, adder: adder, pace: pace)  // off the main actor
            self?.finished(text, request: request)
        }
    }

    /// The sum itself, on the global executor (`@concurrent`). Everything it touches is its own:
    /// its parameters are values or `Sendable`, and its formatter and running total are locals.
    @concurrent
    private nonisolated static func sum(_ numbers: [Int], adder: SlowAdder, pace: Int) async -> String? {
        // FIX: thread confinement: this sum's own formatter, made and used here only.
        let formatter = PropertyStrategiesFormatter()
        var total = 0  // FIX: a local while it runs, never a property someone else can read.
        for number in numbers {
            if Task.isCancelled { return nil }
            if pace > 0 { usleep(useconds_t(pace * 1000)) }
            total = adder.add(number, to: total)
        }
        return formatter.string(from: total)
    }

    private func finished(_ text: String?, request: Int) {
        guard request == newest, let text else { return }  // an older or cancelled sum: dropped
        inProgress = nil
        newestTotal = text
        screen.total.setText(text)
        screen.recalculating.set(false)
    }
}

extension PropertyStrategiesLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<ListAppEnvironment, PropertyStrategiesController>] {
        [LabVariant(.fixed, name: "fixed-main-actor", runsTasks: true) { PropertyStrategiesFixedSwift6(environment: $0) }]
    }
}
