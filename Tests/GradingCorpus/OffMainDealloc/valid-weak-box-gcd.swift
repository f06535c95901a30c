// VALID: GCD, and background code holds only a small box with a weak reference to the controller,
// made on the main thread and read only in the block that runs on the main queue; dismiss()
// marks the controller dismissed, and that block checks it before touching the screen.
import Dispatch
import Foundation
import LabKit
import OffMainDealloc

final class OffMainDeallocValidWeakBox: @unchecked Sendable {
    weak var controller: OffMainDeallocValidWeakBoxGCD?  // read on the main thread only
    init(_ controller: OffMainDeallocValidWeakBoxGCD) { self.controller = controller }
}

final class OffMainDeallocValidWeakBoxGCD: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let sums = DispatchQueue(label: "off-main-dealloc.sums")
    private var dismissed = false  // main thread only
    private var latest = 0  // main thread only

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
        super.init(screenName: OffMainDeallocLab.screenName)
    }

    func add(_ number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        latest += 1
        let request = latest
        let snapshot = numbers
        let adder = self.adder
        let box = OffMainDeallocValidWeakBox(self)
        sums.async {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.main.async {
                box.controller?.show(total, for: request)
            }
        }
    }

    private func show(_ total: Int, for request: Int) {
        guard !dismissed, request == latest else { return }
        screen.total.setText(String(total))
        screen.recalculating.set(false)
    }

    func dismiss() { dismissed = true }
}
