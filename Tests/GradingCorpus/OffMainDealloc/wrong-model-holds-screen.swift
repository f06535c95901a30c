// WRONG: a small model object that the worker may hold, with the controller never captured;
// but the model owns the screen (a view). When the worker's blocks are the model's last owners,
// the model and the view with it die on a background thread.
import Foundation
import LabKit
import OffMainDealloc

final class OffMainDeallocWrongScreenModel: @unchecked Sendable {
    let screen: TotalScreen
    var dismissed = false  // main thread only
    var latest = 0  // main thread only
    init(screen: TotalScreen) { self.screen = screen }
}

final class OffMainDeallocWrongModelHoldsScreen: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let model: OffMainDeallocWrongScreenModel
    private let adder: SlowAdder

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        model = OffMainDeallocWrongScreenModel(screen: environment.screen)
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
