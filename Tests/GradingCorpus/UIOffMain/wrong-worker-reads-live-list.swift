// WRONG: the screen is only touched on main, but the worker sums the controller's own list
// (self.numbers), not a copy: when the user adds a number before the total came, the main thread
// writes the list the worker is reading. A data race.
import Foundation
import LabKit
import UIOffMain

final class UIOffMainWrongWorkerReadsLiveList: UIOffMainController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        let screen = self.screen, adder = self.adder
        queue.addOperation {
            // reads the controller's own list on the worker (no private copy)
            let total = self.numbers.reduce(0) { adder.add($1, to: $0) }
            OperationQueue.main.addOperation {
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }
}
