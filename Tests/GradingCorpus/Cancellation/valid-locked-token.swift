// VALID: each sum gets a cancellation token (a flag behind an NSLock); a change cancels the
// previous token, the sum checks its token before every step, and the main thread shows only
// the total of a token that was never cancelled.
import Foundation
import LabKit
import Cancellation

final class CancellationValidLockedTokenFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    func cancel() { lock.withLock { cancelled = true } }
    var isCancelled: Bool { lock.withLock { cancelled } }
}

final class CancellationValidLockedToken: CancellationController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var token: CancellationValidLockedTokenFlag?  // main thread only

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
        token?.cancel()
        let mine = CancellationValidLockedTokenFlag()
        token = mine
        screen.recalculating.set(true)
        let snapshot = numbers
        let adder = self.adder, screen = self.screen
        Thread.detachNewThread {
            var total = 0
            for number in snapshot {
                if mine.isCancelled { return }
                total = adder.add(number, to: total)
            }
            let result = total
            DispatchQueue.main.async {
                if mine.isCancelled { return }
                screen.total.setText(String(result))
                screen.recalculating.set(false)
            }
        }
    }
}
