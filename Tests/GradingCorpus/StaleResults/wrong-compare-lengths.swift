// WRONG: a total is shown only if the list it summed has as many numbers as the user's list now.
// That tells an old list from a new one only when their lengths differ: after "delete one, add
// one" an old sum of a different list of the same length is taken for the current one.
import Foundation
import LabKit
import StaleResults

final class StaleResultsWrongCompareLengths: StaleResultsController {
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
                guard snapshot.count == self.numbers.count else { return }  // an older list
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }
}
