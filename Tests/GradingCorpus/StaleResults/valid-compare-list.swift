// VALID: each sum hands back the very list it summed; the main thread shows the total only if
// that list is still exactly the user's list (same numbers, same order), so it is its sum.
import Foundation
import LabKit
import StaleResults

final class StaleResultsValidCompareList: StaleResultsController {
    private var numbers: [Int]  // main thread only
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
        let adder = self.adder
        DispatchQueue.global().async {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.main.async { [weak self] in
                guard let self, snapshot == self.numbers else { return }
                self.screen.total.setText(String(total))
                self.screen.recalculating.set(false)
            }
        }
    }
}
