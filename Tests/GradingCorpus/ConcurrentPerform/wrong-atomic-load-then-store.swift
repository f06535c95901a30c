// WRONG: each measurement has a total of its own, an Atomic, but each row loads it and then
// stores the new figure in a second step: two rows that load the same figure lose one of them.
// ThreadSanitizer sees no race (every access is atomic).
import Foundation
import LabKit
import ConcurrentPerform
import Synchronization

/// One atomic total per measurement; each row loads it, then stores the new sum.
final class ConcurrentPerformWrongAtomicLoadThenStore: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen

    init(screen: ConcurrentPerformScreen) {
        self.screen = screen
    }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        let screen = self.screen
        DispatchQueue.global().async {
            let total = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: photo.rowCount) { row in
                let b = photo.brightness(ofRow: row)
                let old = total.load(ordering: .sequentiallyConsistent)
                total.store(old + b, ordering: .sequentiallyConsistent)
            }
            let result = total.load(ordering: .sequentiallyConsistent)
            DispatchQueue.main.async {
                screen.brightness.setText(String(result))
                screen.measuring.set(false)
            }
        }
    }
}
