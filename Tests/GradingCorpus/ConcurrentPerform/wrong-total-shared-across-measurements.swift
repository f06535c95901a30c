// WRONG: each row's brightness is added under a lock, but into one running total kept on the
// controller and reset by every measure(): two measurements at once add into the same total, and
// the screen shows their rows mixed.
import Foundation
import LabKit
import ConcurrentPerform

final class ConcurrentPerformWrongTotalSharedAcrossMeasurements: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen
    private let lock = NSLock()
    private var running = 0  // the running total, under lock

    init(screen: ConcurrentPerformScreen) {
        self.screen = screen
    }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        let screen = self.screen
        DispatchQueue.global().async {
            self.lock.withLock { self.running = 0 }  // a fresh measurement
            DispatchQueue.concurrentPerform(iterations: photo.rowCount) { row in
                let b = photo.brightness(ofRow: row)
                self.lock.withLock { self.running += b }
            }
            let total = self.lock.withLock { self.running }
            // The screen is updated on the main thread (that bug has its own lab: ui-off-main).
            let result = total
            DispatchQueue.main.async {
                screen.brightness.setText(String(result))
                screen.measuring.set(false)
            }
        }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
