// WRONG: each sum asks "am I still the newest?" on its worker thread (under a lock), and only
// then posts its total to main: a newer sum can finish and be shown in between, and the older
// total lands after it.
import Foundation
import LabKit
import StaleResults


/// Check it with `racelab run stale-results --variant exercise`. Keep the class name and its actions.
/// Each change starts a sum of a private copy of the list and shows the result on the main
/// thread. No data race anywhere, and still wrong.
final class StaleResultsWrongCheckOnWorker: StaleResultsController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let lock = NSLock()
    private var generation = 0  // under lock

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
        screen.recalculating.set(true)
        let snapshot = numbers
        let screen = self.screen, adder = self.adder
        let mine = lock.withLock { generation += 1; return generation }
        Thread.detachNewThread { [self] in
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            // stale? ask on the worker, then post only a current result
            guard lock.withLock({ generation == mine }) else { return }
            DispatchQueue.main.async {
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }
}
