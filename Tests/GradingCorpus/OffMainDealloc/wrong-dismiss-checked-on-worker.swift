// WRONG: the worker holds no controller and asks a locked "dismissed" flag before it posts its
// total; but it asks on the worker, not on main. If the user leaves after the question and
// before the main thread runs the posted block, the total lands on the dismissed screen.
import Foundation
import LabKit
import OffMainDealloc

final class OffMainDeallocWrongDismissFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

final class OffMainDeallocWrongDismissCheckedOnWorker: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let dismissed = OffMainDeallocWrongDismissFlag()

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
        let adder = self.adder, screen = self.screen, dismissed = self.dismissed
        Thread.detachNewThread {
            var total = 0
            for number in snapshot {
                if dismissed.isSet { return }
                total = adder.add(number, to: total)
            }
            guard !dismissed.isSet else { return }
            let result = total
            DispatchQueue.main.async {
                screen.total.setText(String(result))
                screen.recalculating.set(false)
            }
        }
    }

    func dismiss() { dismissed.set() }
}
