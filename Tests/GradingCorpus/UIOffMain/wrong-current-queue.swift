// WRONG: runs the sum as an operation and sends the screen update to OperationQueue.current,
// thinking it is the queue that asked for the work. Inside an operation, the current queue is
// the background queue running it: the update runs off the main thread.
import Foundation
import LabKit
import UIOffMain

final class UIOffMainWrongCurrentQueue: UIOffMainController {
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
            (OperationQueue.current ?? OperationQueue.main).addOperation {
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }
}
