// WRONG: a generation counter, but the worker reads it when its sum is done instead of when the
// sum starts: by then it is the newest number, so every result looks current (and the read, off
// the main thread, races with the main thread bumping it).
import Foundation
import LabKit
import StaleResults

final class StaleResultsWrongGenerationReadLate: StaleResultsController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
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

    private func recalculate() {
        generation += 1
        screen.recalculating.set(true)
        let snapshot = numbers
        let screen = self.screen, adder = self.adder
        Thread.detachNewThread {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            let mine = self.generation
            DispatchQueue.main.async {
                guard mine == self.generation else { return }
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }
}
