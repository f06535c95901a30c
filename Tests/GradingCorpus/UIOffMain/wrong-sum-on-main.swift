// WRONG: every UI access is on the main thread because everything is: the sum runs on the main
// queue, so the screen freezes while it adds (the freeze the app moved the sum to a thread for).
import Foundation
import LabKit
import UIOffMain

final class UIOffMainWrongSumOnMain: UIOffMainController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        screen.recalculating.set(true)
        let snapshot = numbers
        let screen = self.screen, adder = self.adder
        // the sum on the main thread: the UI freezes for the whole sum
        DispatchQueue.main.async {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            screen.total.setText(String(total))
            screen.recalculating.set(false)
        }
    }
}
