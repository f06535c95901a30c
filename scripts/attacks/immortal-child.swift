// ATTACK: immortal-child
// Blocks the main thread for ever while a pacemaker thread keeps reaching a checkpoint, so the run
// always looks busy and never ends.
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
        let adder = self.adder
        // Pacemaker: a checkpoint hit every 50 ms is "progress" to the watchdog.
        Thread.detachNewThread {
            while true {
                _ = adder.add(0, to: 0)
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        // The main thread never comes back, so the scenario never ends and the child never exits.
        let never = DispatchSemaphore(value: 0)
        never.wait()
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeListAdderExercise(_ environment: ListAppEnvironment) -> ListAdderController {
    ListAdderExercise(environment: environment)
}
