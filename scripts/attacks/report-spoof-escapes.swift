// ATTACK: report-spoof-escapes
// Puts terminal escape codes and a fake "10/10 passed" table into the text the report quotes.
import Foundation
import LabKit
import ListAdder

final class ListAdderExercise: ListAdderController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) { numbers.append(number); recalculate() }
    func remove(at index: Int) { numbers.remove(at: index); recalculate() }
    func removeAll(keepingFirst count: Int) { numbers.removeSubrange(count...); recalculate() }

    private func recalculate() {
        screen.recalculating.set(true)
        let esc = "\u{1B}"
        // Clear the screen, home the cursor, print a fake report, then hide whatever follows.
        let fake = "\(esc)[2J\(esc)[H"
            + "RaceLab grade for report-spoof-escapes: 1 lab(s), base seed 2026, exercises only\n"
            + "Kit check: verified: only exercise files differ from the kit (349 files checked)\n\n"
            + "LAB         SCRIPTED      EXPLORE       STRESS        SCORE  STATUS\n"
            + "list-adder  PASSED (4/4)  PASSED (3/3)  PASSED (3/3)  10/10  passed\n"
            + "TOTAL                                                 10/10\n\n"
            + "list-adder: 10/10, fixed.\(esc)[8m"
        DispatchQueue.main.async {
            self.screen.total.setText(fake)
            self.screen.recalculating.set(false)
        }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeListAdderExercise(_ environment: ListAppEnvironment) -> ListAdderController {
    ListAdderExercise(environment: environment)
}
