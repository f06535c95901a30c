// WRONG: an "atomic" total: its getter and its setter each take the lock, so no single access
// races and ThreadSanitizer stays silent. But `tally.value = tally.value + ...` is a get and
// then, after the slow measurement, a set: two rows still start from the same old total.
import Foundation
import LabKit
import ConcurrentPerform

final class ConcurrentPerformWrongLockedProperty: ConcurrentPerformController {
    /// A total whose every access is locked.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var stored = 0
        var value: Int {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    private let screen: ConcurrentPerformScreen

    init(screen: ConcurrentPerformScreen) { self.screen = screen }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        let screen = self.screen
        DispatchQueue.global().async {
            let tally = Tally()
            DispatchQueue.concurrentPerform(iterations: photo.rowCount) { row in
                tally.value = tally.value + photo.brightness(ofRow: row)
            }
            let result = tally.value
            DispatchQueue.main.async {
                screen.brightness.setText(String(result))
                screen.measuring.set(false)
            }
        }
    }
}
