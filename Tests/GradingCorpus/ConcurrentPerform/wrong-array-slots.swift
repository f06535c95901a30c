// WRONG: one slot per row is the right idea, but the slots are a Swift array, and
// `rows[row] = ...` modifies the whole array variable: every iteration modifies the same
// variable at once (and copy-on-write may copy the array under another thread's feet).
import Foundation
import LabKit
import ConcurrentPerform

final class ConcurrentPerformWrongArraySlots: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen

    init(screen: ConcurrentPerformScreen) { self.screen = screen }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        let screen = self.screen
        DispatchQueue.global().async {
            var rows = [Int](repeating: 0, count: photo.rowCount)
            DispatchQueue.concurrentPerform(iterations: photo.rowCount) { row in
                rows[row] = photo.brightness(ofRow: row)
            }
            let total = rows.reduce(0, +)
            DispatchQueue.main.async {
                screen.brightness.setText(String(total))
                screen.measuring.set(false)
            }
        }
    }
}
