// VALID: the screen's state lives in a small model object that the worker may hold; the
// controller itself is never captured. dismiss() marks the model dismissed on the main thread,
// and the total is delivered on the main thread only if the model is still showing.
import Foundation
import LabKit
import OffMainDealloc

final class OffMainDeallocValidScreenModel: @unchecked Sendable {
    let screen: TotalScreen
    var dismissed = false  // main thread only
    var latest = 0  // main thread only
    init(screen: TotalScreen) { self.screen = screen }
}

final class OffMainDeallocValidModelObject: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let model: OffMainDeallocValidScreenModel
    private let adder: SlowAdder

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        model = OffMainDeallocValidScreenModel(screen: environment.screen)
        adder = environment.adder
        super.init(screenName: OffMainDeallocLab.screenName)
    }

    func add(_ number: Int) {
        numbers.append(number)
        model.screen.recalculating.set(true)
        model.latest += 1
        let request = model.latest
        let snapshot = numbers
        let adder = self.adder, model = self.model
        DispatchQueue.global().async {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.main.async {
                guard !model.dismissed, request == model.latest else { return }
                model.screen.total.setText(String(total))
                model.screen.recalculating.set(false)
            }
        }
    }

    func dismiss() {
        model.dismissed = true
    }
}
