// VALID: the screen's state lives in a small model object that the worker may hold; the
// controller itself is never captured, and the model reaches the screen only through a weak link
// read on the main thread. dismiss() marks the model dismissed on the main thread, and the total
// is delivered on the main thread only if the model is still showing.
import Foundation
import LabKit
import OffMainDealloc

final class OffMainDeallocValidScreenModel: @unchecked Sendable {
    weak var screen: TotalScreen?  // main thread only
    var dismissed = false  // main thread only
    var latest = 0  // main thread only
    init(screen: TotalScreen) { self.screen = screen }
}

final class OffMainDeallocValidModelObject: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let screen: TotalScreen  // the controller owns its view; the model only points at it
    private let model: OffMainDeallocValidScreenModel
    private let adder: SlowAdder

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        model = OffMainDeallocValidScreenModel(screen: environment.screen)
        adder = environment.adder
        super.init(screenName: OffMainDeallocLab.screenName)
    }

    func add(_ number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        model.latest += 1
        let request = model.latest
        let snapshot = numbers
        let adder = self.adder, model = self.model
        DispatchQueue.global().async {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.main.async {
                guard !model.dismissed, request == model.latest, let screen = model.screen else { return }
                screen.total.setText(String(total))
                screen.recalculating.set(false)
            }
        }
    }

    func dismiss() {
        model.dismissed = true
    }
}
