// VALID: each sum is a DispatchWorkItem; a change cancels the previous item, and the item checks
// its own isCancelled before every step; a cancelled item's total is never shown.
import Dispatch
import Foundation
import LabKit
import Cancellation

/// Lets a work item's block find its own item (weakly: the item owns the block).
final class CancellationValidWorkItemLink: @unchecked Sendable {
    weak var item: DispatchWorkItem?
}

final class CancellationValidWorkItem: CancellationController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var current: DispatchWorkItem?  // main thread only

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        recalculate()
    }

    func removeAll(keepingFirst count: Int) {
        numbers.removeSubrange(count...)
        recalculate()
    }

    private func recalculate() {
        current?.cancel()
        screen.recalculating.set(true)
        let snapshot = numbers
        let adder = self.adder, screen = self.screen
        let link = CancellationValidWorkItemLink()
        let item = DispatchWorkItem {
            guard let me = link.item else { return }
            var total = 0
            for number in snapshot {
                if me.isCancelled { return }
                total = adder.add(number, to: total)
            }
            let result = total
            DispatchQueue.main.async {
                guard !me.isCancelled else { return }
                screen.total.setText(String(result))
                screen.recalculating.set(false)
            }
        }
        link.item = item  // set before the item runs
        current = item
        DispatchQueue.global().async(execute: item)
    }
}
