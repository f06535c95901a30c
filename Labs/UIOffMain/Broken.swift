import Foundation
import LabKit

/// Sums on a background thread, from a private copy of the list (so no data race on the list),
/// and then updates the screen from that same thread.
final class UIOffMainBroken: UIOffMainController {
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
        screen.recalculating.set(true)
        let snapshot = numbers
        let screen = self.screen, adder = self.adder
        Thread.detachNewThread {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            // BUG: UI objects belong to the main thread, but these two lines run on the worker.
            screen.total.setText(String(total))
            screen.recalculating.set(false)
        }
    }
}
