// WRONG: the sum hands its total to a block on a global queue, which asks "am I still the
// newest?" and then posts the total to main with no second look: a newer total can be shown in
// between, and the older one lands after it.
import Foundation
import LabKit
import StaleResults

/// Generation number behind a lock. BUG kept: "am I still the newest?" is asked off the main
/// thread (in a block the sum sends to a global queue), and the total is handed to main
/// afterwards with no second look. Between the check and the hand-over, a newer sum can finish
/// and be shown; this older total then lands after it.
final class StaleResultsWrongCheckOnGlobalQueue: StaleResultsController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let lock = NSLock()
    private var generation = 0

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

    private func currentGeneration() -> Int { lock.lock(); defer { lock.unlock() }; return generation }

    private func recalculate() {
        lock.lock(); generation += 1; let mine = generation; lock.unlock()
        screen.recalculating.set(true)
        let snapshot = numbers
        let screen = self.screen, adder = self.adder
        Thread.detachNewThread { [self] in
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.global().async { [self] in    // the courier
                guard currentGeneration() == mine else { return }   // check (off main)
                DispatchQueue.main.async {                          // act (later, on main)
                    screen.total.setText(String(total))
                    screen.recalculating.set(false)
                }
            }
        }
    }
}
