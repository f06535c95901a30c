// VALID: two chunks of rows, each summed into a local variable of its own; each chunk hands its
// partial sum to a serial queue that owns the total, and the total is read on that queue too.
import Foundation
import LabKit
import ConcurrentPerform

final class ConcurrentPerformValidChunksSerialQueue: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen

    init(screen: ConcurrentPerformScreen) { self.screen = screen }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        let screen = self.screen
        DispatchQueue.global().async { [weak screen] in  // only the main thread owns the screen (a view)
            let owner = DispatchQueue(label: "concurrent-perform.total")
            var total = 0  // only touched on `owner`
            let half = (photo.rowCount + 1) / 2
            DispatchQueue.concurrentPerform(iterations: 2) { chunk in
                var partial = 0
                for row in (chunk == 0 ? 0..<half : half..<photo.rowCount) {
                    partial += photo.brightness(ofRow: row)
                }
                owner.sync { total += partial }
            }
            let result = owner.sync { total }
            DispatchQueue.main.async {
                screen?.brightness.setText(String(result))
                screen?.measuring.set(false)
            }
        }
    }
}
