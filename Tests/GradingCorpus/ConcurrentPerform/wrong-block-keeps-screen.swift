// WRONG: the shared total is an atomic integer, added to in one atomic step (that part is right);
// but the background block keeps the screen, a view, alive until it ends. A user who leaves the
// screen while it measures makes that block its last owner: the screen dies off the main thread.
import Foundation
import LabKit
import ConcurrentPerform
import Synchronization

final class ConcurrentPerformWrongBlockKeepsScreen: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen

    init(screen: ConcurrentPerformScreen) { self.screen = screen }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        let screen = self.screen
        DispatchQueue.global().async {
            let total = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: photo.rowCount) { row in
                total.wrappingAdd(photo.brightness(ofRow: row), ordering: .relaxed)
            }
            let result = total.load(ordering: .relaxed)
            DispatchQueue.main.async {
                screen.brightness.setText(String(result))
                screen.measuring.set(false)
            }
        }
    }
}
