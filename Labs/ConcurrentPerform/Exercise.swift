import Foundation
import LabKit
import ConcurrentPerform

/// EXERCISE: this starts as a copy of the broken variant. Make the measurement correct and
/// race-free: every row counted once, no two iterations touching the same memory unguarded. The
/// harness runs it with `make check LAB=concurrent-perform`. Keep the class name
/// and `measure(_:)`, and keep the rows measured in parallel; change anything else. Like the
/// fix, let the background block hold the screen (a view) only weakly: if the user leaves while it
/// measures, the screen must still die on the main thread (the off-main-dealloc lab).
///
/// Measures a photo's brightness in parallel: DispatchQueue.concurrentPerform runs one iteration
/// per row, spread over the machine's cores, and every iteration adds its row to a running total.
final class ConcurrentPerformExercise: ConcurrentPerformController {
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
                // TODO: fix this: every iteration reads and writes the same `total`, on whichever thread it
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

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeConcurrentPerformExercise(_ screen: ConcurrentPerformScreen) -> ConcurrentPerformController {
    ConcurrentPerformExercise(screen: screen)
}
