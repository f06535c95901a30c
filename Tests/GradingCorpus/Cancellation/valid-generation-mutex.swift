// VALID: a generation number in a Synchronization.Mutex; each change bumps it, and a sum checks
// before every step that it is still the newest (it stops otherwise); the main thread shows only
// the newest sum's total.
import Foundation
import LabKit
import Cancellation
import Synchronization

final class CancellationValidGenerationMutex: CancellationController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let generation = Mutex(0)

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        recalculate()
    }

    func removeAll(keepingFirst count: Int) {
        numbers.removeSubrange(count...)
        recalculate()
    }

    private func recalculate() {
        let mine = generation.withLock { value -> Int in
            value += 1
            return value
        }
        screen.recalculating.set(true)
        let snapshot = numbers
        let adder = self.adder
        DispatchQueue.global().async { [weak self] in
            guard let self else { return }
            var total = 0
            for number in snapshot {
                guard self.generation.withLock({ $0 }) == mine else { return }  // superseded: stop
                total = adder.add(number, to: total)
            }
            let result = total
            DispatchQueue.main.async {
                guard self.generation.withLock({ $0 }) == mine else { return }
                self.screen.total.setText(String(result))
                self.screen.recalculating.set(false)
            }
        }
    }
}
