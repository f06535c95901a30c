// VALID: the shared total is an atomic integer; each iteration adds its row in one atomic step
// (wrappingAdd is a single read-modify-write that no other thread can split).
import Foundation
import LabKit
import ConcurrentPerform
import Synchronization

final class ConcurrentPerformValidAtomic: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen

    init(screen: ConcurrentPerformScreen) { self.screen = screen }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        let screen = self.screen
        DispatchQueue.global().async { [weak screen] in  // only the main thread owns the screen (a view)
            let total = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: photo.rowCount) { row in
                total.wrappingAdd(photo.brightness(ofRow: row), ordering: .relaxed)
            }
            let result = total.load(ordering: .relaxed)
            DispatchQueue.main.async {
                screen?.brightness.setText(String(result))
                screen?.measuring.set(false)
            }
        }
    }
}
