import Foundation
import LabKit

/// Measures a photo's brightness in parallel: DispatchQueue.concurrentPerform runs one iteration
/// per row, spread over the machine's cores, and every iteration adds its row to a running total.
final class ConcurrentPerformBroken: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen

    init(screen: ConcurrentPerformScreen) {
        self.screen = screen
    }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        let screen = self.screen
        DispatchQueue.global().async {
            var total = 0
            DispatchQueue.concurrentPerform(iterations: photo.rowCount) { row in
                // BUG: every iteration reads and writes the same `total`, on whichever thread it
                // runs. Two rows measured at once both start from the same old total, and the
                // second write wipes out the first: a lost update, and a data race.
                total = total + photo.brightness(ofRow: row)
            }
            // The screen is updated on the main thread (that bug has its own lab: ui-off-main).
            let result = total
            DispatchQueue.main.async {
                screen.brightness.setText(String(result))
                screen.measuring.set(false)
            }
        }
    }
}
