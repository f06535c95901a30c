// WRONG: every write goes through the main queue, but the worker first reads the label, on its
// own thread, to skip a total that is already shown: reading a UI object off the main thread
// breaks the same rule as writing it.
import Foundation
import LabKit
import UIOffMain

final class UIOffMainWrongReadsLabelOffMain: UIOffMainController {
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
        Thread.detachNewThread {
            let total = snapshot.reduce(0) { adder.add($1, to: $0) }
            let unchanged = screen.total.text() == String(total)
            DispatchQueue.main.async {
                if !unchanged { screen.total.setText(String(total)) }
                screen.recalculating.set(false)
            }
        }
    }
}
