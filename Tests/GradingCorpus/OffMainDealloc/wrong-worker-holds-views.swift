// WRONG: the worker holds neither the controller nor the screen, but it holds the screen's two
// views (its label and its spinner): when the user leaves mid-sum, they die on the worker. And
// the spinner is set after the screen was dismissed.
import Foundation
import LabKit
import OffMainDealloc

/// Main-thread-only token: whether the screen was dismissed.
final class OffMainDeallocViewsToken: @unchecked Sendable {
    var dismissed = false  // main thread only
    private let lock = NSLock()
    private var stop = false
    var cancelled: Bool {
        get { lock.withLock { stop } }
        set { lock.withLock { stop = newValue } }
    }
}

final class OffMainDeallocWrongWorkerHoldsViews: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var token = OffMainDeallocViewsToken()

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
        super.init(screenName: OffMainDeallocLab.screenName)
    }

    func add(_ number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        let snapshot = numbers
        // The worker holds neither the controller nor the screen: only the screen's two views
        // (its label and its spinner) and a token.
        let label = screen.total, spinner = screen.recalculating
        let adder = self.adder, token = self.token
        Thread.detachNewThread {
            var total = 0
            for number in snapshot {
                if token.cancelled { return }
                total = adder.add(number, to: total)
            }
            let result = total
            DispatchQueue.main.async {
                spinner.set(false)
                if !token.dismissed { label.setText(String(result)) }
            }
        }
    }

    func dismiss() {
        token.dismissed = true
        token.cancelled = true
    }
}
