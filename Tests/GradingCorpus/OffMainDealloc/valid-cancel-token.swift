// VALID: the worker never sees the controller or the screen: it gets the numbers, the adder and a
// cancellation token (a flag behind an NSLock, and a weak link to the screen that only the main
// thread reads). dismiss() cancels the token; the sum stops at its next step, and the main thread
// drops a total whose token was cancelled.
import Foundation
import LabKit
import OffMainDealloc

final class OffMainDeallocValidCancelTokenFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    weak var screen: TotalScreen?  // set and read on the main thread only
    func cancel() { lock.withLock { cancelled = true } }
    var isCancelled: Bool { lock.withLock { cancelled } }
}

final class OffMainDeallocValidCancelToken: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var token: OffMainDeallocValidCancelTokenFlag?  // main thread only

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
        super.init(screenName: OffMainDeallocLab.screenName)
    }

    func add(_ number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        token?.cancel()
        let token = OffMainDeallocValidCancelTokenFlag()
        token.screen = screen
        self.token = token
        let snapshot = numbers
        let adder = self.adder
        Thread.detachNewThread {
            var total = 0
            for number in snapshot {
                if token.isCancelled { return }
                total = adder.add(number, to: total)
            }
            let result = total
            DispatchQueue.main.async {
                // Checked on main, where dismiss() runs; the screen is only ever held here, on main.
                guard !token.isCancelled, let screen = token.screen else { return }
                screen.total.setText(String(result))
                screen.recalculating.set(false)
            }
        }
    }

    func dismiss() {
        token?.cancel()
        token = nil
    }
}
