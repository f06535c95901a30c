// WRONG: [weak self] only on the block that goes back to the main thread. To make that weak
// capture, the thread's own closure must capture self first, strongly: the worker owns the
// controller for its whole run, and its release can be the last one.
import Foundation
import LabKit
import OffMainDealloc

final class OffMainDeallocWrongInnerWeakSelf: ScreenController, OffMainDeallocController {
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
        let adder = self.adder
        Thread.detachNewThread {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.main.async { [weak self] in
                guard let self, !self.dismissed else { return }
                self.screen.total.setText(String(total))
                self.screen.recalculating.set(false)
            }
        }
    }

    func dismiss() { dismissed = true }
}
