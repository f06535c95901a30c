// VALID: the worker waits for the main thread to set the screen (DispatchQueue.main.sync): the
// updates run on main, and the worker goes on only once they are done.
import Foundation
import LabKit
import UIOffMain

final class UIOffMainValidMainSync: UIOffMainController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var latest = 0  // main thread only

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        latest += 1
        let request = latest
        screen.recalculating.set(true)
        let snapshot = numbers
        let adder = self.adder
        DispatchQueue.global().async {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            DispatchQueue.main.sync {
                guard request == self.latest else { return }  // a newer sum will show its own total
                self.screen.total.setText(String(total))
                self.screen.recalculating.set(false)
            }
        }
    }
}
