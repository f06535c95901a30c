// WRONG: the write of the total is locked, but the read that the new value is computed from is
// not (and it happens before the slow measurement): two rows still start from the same old
// total, one overwrites the other, and the unlocked read races with the locked write.
import Foundation
import LabKit
import ConcurrentPerform

final class ConcurrentPerformWrongLockWriteOnly: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen

    init(screen: ConcurrentPerformScreen) { self.screen = screen }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        let screen = self.screen
        DispatchQueue.global().async {
            var total = 0
            let lock = NSLock()
            DispatchQueue.concurrentPerform(iterations: photo.rowCount) { row in
                let newTotal = total + photo.brightness(ofRow: row)
                lock.withLock { total = newTotal }
            }
            let result = total
            DispatchQueue.main.async {
                screen.brightness.setText(String(result))
                screen.measuring.set(false)
            }
        }
    }
}
