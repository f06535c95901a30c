// WRONG: a total is shown only if its list has the same length and the same last number as the
// user's list now. Lists repeat numbers: a different list can end the same way at the same
// length, and its stale sum is then taken for the current one.
import Foundation
import LabKit
import StaleResults

final class StaleResultsWrongCompareCountAndLast: StaleResultsController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder

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
        Thread.detachNewThread {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.main.async {
                guard snapshot.count == self.numbers.count, snapshot.last == self.numbers.last else { return }
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }
}
