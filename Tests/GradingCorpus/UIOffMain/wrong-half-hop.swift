// WRONG: the total label is set on the main queue, but the spinner is switched off right away on
// the worker: half of the screen update still happens off the main thread.
import Foundation
import LabKit
import UIOffMain

final class UIOffMainWrongHalfHop: UIOffMainController {
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
            DispatchQueue.main.async { screen.total.setText(String(total)) }
            screen.recalculating.set(false)
        }
    }
}
