// ATTACK: silgen-space-tsan-ignore
// Writes the attribute as "@ _silgen_name" (a space after @) to slip past the source checks, and
// binds TSan's ignore calls around the racy read.
import Foundation
import LabKit
import ListAdder

@ _silgen_name("__tsan_ignore_thread_begin") func quietBegin()
@ _silgen_name("__tsan_ignore_thread_end") func quietEnd()

final class ListAdderExercise: ListAdderController {
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
        recalculate()
    }

    func remove(at index: Int) {
        numbers.remove(at: index)
        recalculate()
    }

    func removeAll(keepingFirst count: Int) {
        numbers.removeSubrange(count...)
        recalculate()
    }

    private func recalculate() {
        screen.recalculating.set(true)
        Thread.detachNewThread {
            quietBegin()
            let copy = self.numbers   // the same unsynchronised read as the broken code
            quietEnd()
            var total = 0
            for number in copy {
                total = self.adder.add(number, to: total)
            }
            let result = total
            DispatchQueue.main.async {
                self.screen.total.setText(String(result))
                self.screen.recalculating.set(false)
            }
        }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeListAdderExercise(_ environment: ListAppEnvironment) -> ListAdderController {
    ListAdderExercise(environment: environment)
}
