// WRONG: [weak self] in the thread's closure, then `guard let self` at its top: from there on the
// worker holds a strong reference for the whole sum, and if the user leaves meanwhile, the
// worker's release is the last one (deinit off main); the total still reaches the dead screen.
import Foundation
import LabKit
import OffMainDealloc

final class OffMainDeallocWrongWeakSelfGuard: ScreenController, OffMainDeallocController {
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
        Thread.detachNewThread { [weak self] in
            guard let self else { return }
            let total = snapshot.reduce(0) { self.adder.add($1, to: $0) }
            DispatchQueue.main.async { [weak self] in
                self?.screen.total.setText(String(total))
                self?.screen.recalculating.set(false)
            }
        }
    }

    func dismiss() {}
}
