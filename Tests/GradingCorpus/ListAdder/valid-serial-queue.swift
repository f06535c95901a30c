// VALID: a serial queue owns the list. The main thread changes it on that queue and the sum
// reads it there too, taking a copy first; the total goes back to the main thread.
import Foundation
import LabKit
import ListAdder

final class ListAdderValidSerialQueue: ListAdderController {
    private var numbers: [Int]  // only touched on `owner`
    private let owner = DispatchQueue(label: "list-adder.numbers")
    private let screen: TotalScreen
    private let adder: SlowAdder

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) { owner.sync { numbers.append(number) }; recalculate() }
    func remove(at index: Int) { owner.sync { _ = numbers.remove(at: index) }; recalculate() }
    func removeAll(keepingFirst count: Int) { owner.sync { numbers.removeSubrange(count...) }; recalculate() }

    private func recalculate() {
        screen.recalculating.set(true)
        let snapshot = owner.sync { numbers }
        DispatchQueue.global().async { [adder, screen] in
            var total = 0
            for number in snapshot { total = adder.add(number, to: total) }
            let result = total
            DispatchQueue.main.async {
                screen.total.setText(String(result))
                screen.recalculating.set(false)
            }
        }
    }
}
