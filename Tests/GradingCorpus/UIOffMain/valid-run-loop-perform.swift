// VALID: the total is handed to the main run loop (RunLoop.main.perform), which runs the block on
// the main thread the next time it turns.
import Foundation
import LabKit
import UIOffMain

final class UIOffMainValidRunLoopPerform: UIOffMainController {
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
        let snapshot = numbers
        let screen = self.screen, adder = self.adder
        queue.addOperation {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            RunLoop.main.perform {
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }
}
