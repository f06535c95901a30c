// WRONG: the sum is an Operation that holds its numbers and the screen, never the controller, and
// dismiss() cancels the queue's operations; the posted total checks isCancelled on main. But an
// operation that has already finished has left the queue: cancelAllOperations() does not reach
// it, and its total, posted but not yet shown when the user leaves, lands on the dead screen.
import Foundation
import LabKit
import OffMainDealloc

final class OffMainDeallocWrongShowingSum: Operation, @unchecked Sendable {
    private let numbers: [Int]
    private let adder: SlowAdder
    private let screen: TotalScreen

    init(numbers: [Int], adder: SlowAdder, screen: TotalScreen) {
        self.numbers = numbers
        self.adder = adder
        self.screen = screen
    }

    override func main() {
        var total = 0
        for number in numbers {
            if isCancelled { return }
            total = adder.add(number, to: total)
        }
        let result = total
        OperationQueue.main.addOperation {
            guard !self.isCancelled else { return }
            self.screen.total.setText(String(result))
            self.screen.recalculating.set(false)
        }
    }
}

final class OffMainDeallocWrongCancelQueueOnly: ScreenController, OffMainDeallocController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private let queue = OperationQueue()

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
        queue.maxConcurrentOperationCount = 1
        super.init(screenName: OffMainDeallocLab.screenName)
    }

    func add(_ number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        queue.cancelAllOperations()  // an older sum's total is no longer wanted
        queue.addOperation(OffMainDeallocWrongShowingSum(numbers: numbers, adder: adder, screen: screen))
    }

    func dismiss() {
        queue.cancelAllOperations()
    }
}
