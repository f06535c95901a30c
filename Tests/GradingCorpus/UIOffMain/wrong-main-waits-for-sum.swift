// WRONG: the sum runs on a thread, but add() waits on a semaphore until it is done and then shows
// the total: no step on main, no UI off main, and a screen frozen for the whole sum.
import Foundation
import LabKit
import UIOffMain

/// Every screen update on main, and every step of the sum on a worker thread... but the main
/// thread waits for that worker (a semaphore), so the screen is frozen for the whole sum anyway.
final class UIOffMainWrongMainWaitsForSum: UIOffMainController {
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
        let adder = self.adder
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var total = 0
        Thread.detachNewThread {
            total = snapshot.reduce(0) { adder.add($1, to: $0) }
            done.signal()
        }
        done.wait()  // main blocks here for the whole sum: the freeze is back
        screen.total.setText(String(total))
        screen.recalculating.set(false)
    }
}
