// WRONG: counts the sums in flight (on the main thread) and shows a total only when no other sum
// is still running, "so the last one wins". The last to finish is not the newest: when the old,
// long sum finishes last, its total is the one shown.
import Foundation
import LabKit
import StaleResults

final class StaleResultsWrongShowWhenIdle: StaleResultsController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var running = 0  // main thread only

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
        running += 1
        screen.recalculating.set(true)
        let snapshot = numbers
        let screen = self.screen, adder = self.adder
        Thread.detachNewThread {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.main.async {
                self.running -= 1
                guard self.running == 0 else { return }  // another sum will speak last
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }
}
