// VALID: one serial queue runs the sums one after the other, in the order the user made the
// changes, and each posts its total to the main queue in that same order: the newest list's
// total is always the last one shown.
import Dispatch
import Foundation
import LabKit
import StaleResults

final class StaleResultsValidSerialQueue: StaleResultsController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let sums = DispatchQueue(label: "stale-results.sums")  // serial: first in, first out
    private var pending = 0  // main thread only

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
        pending += 1
        screen.recalculating.set(true)
        let snapshot = numbers
        let adder = self.adder, screen = self.screen
        sums.async {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.main.async {
                self.pending -= 1
                screen.total.setText(String(total))
                if self.pending == 0 { screen.recalculating.set(false) }
            }
        }
    }
}
