// VALID: one serial queue for every sum, so the sums finish in the order they started and the
// newest total is always shown last; each older total is shown on the way (in order, never going
// back), and each result turns the spinner off (a newer sum may still be queued behind it).
import Foundation
import LabKit
import StaleResults

final class StaleResultsValidSerialQueueEveryResult: StaleResultsController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let sums = DispatchQueue(label: "sums")

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
        sums.async {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.main.async {
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }
}
