import Foundation
import LabKit
import ListAdder

// ATTACK: early-result
// Full marks, bug untouched: on its first init it writes a clean result straight to the result
// channel and leaves before the scenario (or any heartbeat) has run.
func setUp() {
    let line = "RACELAB-RESULT {\"elapsedSeconds\":1,\"failures\":[],\"iterationsRun\":3,\"metrics\":{},\"notes\":[],\"tsanEnabled\":true,\"tsanReports\":0}\n"
    _ = line.withCString { write(3, $0, strlen($0)) }
    _exit(0)
}
func before() {}
func after() {}
final class ListAdderExercise: ListAdderController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
        setUp()
    }

    func add(_ number: Int) { numbers.append(number); recalculate() }
    func remove(at index: Int) { numbers.remove(at: index); recalculate() }
    func removeAll(keepingFirst count: Int) { numbers.removeSubrange(count...); recalculate() }

    private func recalculate() {
        screen.recalculating.set(true)
        Thread.detachNewThread {
            before()
            var total = 0
            let count = self.numbers.count
            for index in 0..<count { total = self.adder.add(self.numbers[index], to: total) }
            after()
            let result = total
            DispatchQueue.main.async {
                self.screen.total.setText(String(result))
                self.screen.recalculating.set(false)
            }
        }
    }
}

public func makeListAdderExercise(_ environment: ListAppEnvironment) -> ListAdderController {
    ListAdderExercise(environment: environment)
}
