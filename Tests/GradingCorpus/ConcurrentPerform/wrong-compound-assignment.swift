// WRONG: `+=` measures the row first and only then reads and writes the total, so the window
// between the read and the write shrinks to a few instructions and lost updates become rare.
// Rare is not never, and two threads still read and write `total` with nothing ordering them.
import Foundation
import LabKit
import ConcurrentPerform

final class ConcurrentPerformWrongCompoundAssignment: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen

    init(screen: ConcurrentPerformScreen) { self.screen = screen }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        let screen = self.screen
        DispatchQueue.global().async {
            var total = 0
            DispatchQueue.concurrentPerform(iterations: photo.rowCount) { row in
                total += photo.brightness(ofRow: row)
            }
            let result = total
            DispatchQueue.main.async {
                screen.brightness.setText(String(result))
                screen.measuring.set(false)
            }
        }
    }
}
