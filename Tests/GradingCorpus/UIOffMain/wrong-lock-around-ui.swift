// WRONG: wraps the screen updates in a lock "to make them thread-safe". A lock orders threads;
// it does not move the updates to the main thread, and UI objects must only be touched there.
import Foundation
import LabKit
import UIOffMain

final class UIOffMainWrongLockAroundUI: UIOffMainController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let uiLock = NSLock()

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        uiLock.withLock { self.screen.recalculating.set(true) }
        let snapshot = numbers
        let screen = self.screen, adder = self.adder, uiLock = self.uiLock
        Thread.detachNewThread {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            uiLock.withLock {
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }
}
