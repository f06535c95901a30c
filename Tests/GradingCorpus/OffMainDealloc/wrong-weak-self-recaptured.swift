// WRONG: the worker holds the controller only weakly, but it makes the main-queue block with a
// [weak self] of its own, evaluated on the worker: that turns the weak link into a strong one for
// a moment, and if the user's release comes in that moment the worker's release is the last one.
import Foundation
import LabKit
import OffMainDealloc

final class OffMainDeallocWrongWeakSelfRecaptured: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let cancelLock = NSLock()
    private var isCancelled = false
    private var cancelled: Bool {
        get { cancelLock.withLock { isCancelled } }
        set { cancelLock.withLock { isCancelled = newValue } }
    }
    private let token = OffMainDeallocRecaptureToken()

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
        super.init(screenName: OffMainDeallocLab.screenName)
    }

    func add(_ number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        let snapshot = numbers, adder = self.adder, token = self.token
        Thread.detachNewThread { [weak self] in
            var total = 0
            for number in snapshot {
                if token.cancelled { return }
                total = adder.add(number, to: total)
            }
            let result = total
            // Weak all the way: the worker never keeps the controller.
            DispatchQueue.main.async { [weak self] in
                guard let self, !token.cancelled else { return }
                self.screen.total.setText(String(result))
                self.screen.recalculating.set(false)
            }
        }
    }

    func dismiss() {
        token.cancelled = true
    }
}

final class OffMainDeallocRecaptureToken: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var cancelled: Bool {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
