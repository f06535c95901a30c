import Foundation
import LabKit
import OffMainDealloc

/// Sums its own copy of the list. It holds no reference to the controller at all.
final class OffMainDeallocSum: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    private(set) var total = 0

    init(numbers: [Int], adder: SlowAdder) {
        self.numbers = numbers
        self.adder = adder
    }

    override func main() {
        var sum = 0
        for number in numbers {
            if isCancelled { return }
            sum = adder.add(number, to: sum)
        }
        total = sum
    }
}

/// A weak link to the controller, created and read on the main thread only. Background code holds
/// this box, never the controller, so it can never be the controller's last owner. (A plain
/// `[weak self]` in a background closure briefly makes a strong reference while it is copied.)
final class OffMainDeallocWeakLink: @unchecked Sendable {
    weak var controller: OffMainDeallocFixed?
    init(_ controller: OffMainDeallocFixed) { self.controller = controller }
}

final class OffMainDeallocFixed: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()
    private var inProgress: OffMainDeallocSum?  // main thread only

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
        super.init(screenName: OffMainDeallocLab.screenName)
    }

    func add(_ number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        inProgress?.cancel()
        // FIX: the operation gets the numbers, not the controller.
        let operation = OffMainDeallocSum(numbers: numbers, adder: adder)
        let link = OffMainDeallocWeakLink(self)
        operation.completionBlock = { [weak operation] in
            guard let operation else { return }
            // FIX: the controller is looked up (and so retained and released) on main only.
            OperationQueue.main.addOperation { link.controller?.finished(operation) }
        }
        inProgress = operation
        queue.addOperation(operation)
    }

    func dismiss() {
        // FIX: a screen that goes away stops its work; no result will be delivered to it.
        inProgress = nil
        queue.cancelAllOperations()
    }

    private func finished(_ operation: OffMainDeallocSum) {
        guard operation === inProgress, !operation.isCancelled else { return }
        inProgress = nil
        screen.total.setText(String(operation.total))
        screen.recalculating.set(false)
    }
}

extension OffMainDeallocLab {
    public static var solutions: [LabVariant<ListAppEnvironment, OffMainDeallocController>] {
        [LabVariant(.fixed) { OffMainDeallocFixed(environment: $0) }]
    }
}
