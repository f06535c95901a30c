// WRONG: the worker never sees the controller, but it holds the screen itself (a view) to show
// the total. A cancelled sum returns on the worker after the user left: that release of the
// screen is the last one, and the view dies on the worker thread.
import Foundation
import LabKit
import OffMainDealloc

final class OffMainDeallocWrongTokenFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    func cancel() { lock.withLock { cancelled = true } }
    var isCancelled: Bool { lock.withLock { cancelled } }
}

final class OffMainDeallocWrongTokenWorkerHoldsScreen: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var token: OffMainDeallocWrongTokenFlag?  // main thread only

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
        let token = OffMainDeallocWrongTokenFlag()
        self.token = token
        let snapshot = numbers
        let adder = self.adder, screen = self.screen  // the worker now owns the view too
        Thread.detachNewThread {
            var total = 0
            for number in snapshot {
                if token.isCancelled { return }
                total = adder.add(number, to: total)
            }
            let result = total
            DispatchQueue.main.async {
                if token.isCancelled { return }  // checked on main, where dismiss() runs
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
