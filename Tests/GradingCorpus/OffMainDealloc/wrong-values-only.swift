// WRONG: the worker captures only what it needs (numbers, adder, screen), so the controller
// always dies on main; but nothing stops the work or its delivery when the user leaves, and the
// total is written into the screen that was dismissed.
import Foundation
import LabKit
import OffMainDealloc

final class OffMainDeallocWrongValuesOnly: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder

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
        let adder = self.adder, screen = self.screen
        Thread.detachNewThread {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.main.async {
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }

    func dismiss() {}
}
