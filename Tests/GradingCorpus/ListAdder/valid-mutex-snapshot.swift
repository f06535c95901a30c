// VALID: Swift 6's Mutex guards the list; each sum works on a copy taken under the lock.
import Foundation
import LabKit
import ListAdder
import Synchronization

final class ListAdderValidMutexSnapshot: ListAdderController {
    private let numbers: Mutex<[Int]>
    private let screen: TotalScreen
    private let adder: SlowAdder

    init(environment: ListAppEnvironment) {
        numbers = Mutex(environment.initialNumbers)
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) { numbers.withLock { $0.append(number) }; recalculate() }
    func remove(at index: Int) { numbers.withLock { _ = $0.remove(at: index) }; recalculate() }
    func removeAll(keepingFirst count: Int) { numbers.withLock { $0.removeSubrange(count...) }; recalculate() }

    private func recalculate() {
        screen.recalculating.set(true)
        Thread.detachNewThread { [self] in
            let snapshot = numbers.withLock { $0 }
            var total = 0
            for number in snapshot { total = adder.add(number, to: total) }
            let result = total
            DispatchQueue.main.async {
                self.screen.total.setText(String(result))
                self.screen.recalculating.set(false)
            }
        }
    }
}
