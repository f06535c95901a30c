// WRONG: [weak self], and the loop upgrades it afresh for each step ("so the controller can go
// away between steps"): during a step the worker holds a strong reference, and a user who leaves
// during a step leaves the worker holding the last one, so deinit runs on the worker.
import Foundation
import LabKit
import OffMainDealloc

final class OffMainDeallocWrongWeakSelfEachStep: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var dismissed = false  // main thread only

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
        Thread.detachNewThread { [weak self] in
            var total = 0
            for number in snapshot {
                guard let self else { return }  // the controller is gone: stop
                total = self.adder.add(number, to: total)
            }
            let result = total
            DispatchQueue.main.async { [weak self] in
                guard let self, !self.dismissed else { return }
                self.screen.total.setText(String(result))
                self.screen.recalculating.set(false)
            }
        }
    }

    func dismiss() { dismissed = true }
}
