// VALID: a generation number, bumped on the main thread at every change; each sum carries the
// number it started with, and the main thread shows a total only if that is still the newest.
import Foundation
import LabKit
import StaleResults

final class StaleResultsValidGenerationCounter: StaleResultsController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var generation = 0  // main thread only

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
        generation += 1
        let mine = generation
        screen.recalculating.set(true)
        let snapshot = numbers
        let adder = self.adder
        Thread.detachNewThread {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.main.async {
                guard mine == self.generation else { return }  // a newer change came since
                self.screen.total.setText(String(total))
                self.screen.recalculating.set(false)
            }
        }
    }
}
