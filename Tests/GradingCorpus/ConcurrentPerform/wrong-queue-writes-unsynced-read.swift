// WRONG: every add goes to a serial queue, so the adds no longer collide; but the total is read
// straight after concurrentPerform, not on that queue. The adds were sent with async, and the
// last ones may not have run yet: the read races with them (and can miss rows).
import Foundation
import LabKit
import ConcurrentPerform

final class ConcurrentPerformWrongQueueWritesUnsyncedRead: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen

    init(screen: ConcurrentPerformScreen) { self.screen = screen }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        let screen = self.screen
        DispatchQueue.global().async {
            let adder = DispatchQueue(label: "concurrent-perform.adder")
            var total = 0
            DispatchQueue.concurrentPerform(iterations: photo.rowCount) { row in
                let brightness = photo.brightness(ofRow: row)
                adder.async { total += brightness }
            }
            let result = total
            DispatchQueue.main.async {
                screen.brightness.setText(String(result))
                screen.measuring.set(false)
            }
        }
    }
}
