// VALID: the row is measured outside the lock (so the rows still run in parallel); only the
// read-modify-write of the total is locked, whole. The total is read after concurrentPerform
// returned, when every iteration has finished.
import Foundation
import LabKit
import ConcurrentPerform

final class ConcurrentPerformValidLockTheAdd: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen

    init(screen: ConcurrentPerformScreen) { self.screen = screen }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        let screen = self.screen
        DispatchQueue.global().async { [weak screen] in  // only the main thread owns the screen (a view)
            var total = 0
            let lock = NSLock()
            DispatchQueue.concurrentPerform(iterations: photo.rowCount) { row in
                let brightness = photo.brightness(ofRow: row)
                lock.withLock { total += brightness }
            }
            let result = lock.withLock { total }
            DispatchQueue.main.async {
                screen?.brightness.setText(String(result))
                screen?.measuring.set(false)
            }
        }
    }
}
