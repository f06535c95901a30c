// WRONG: each sum gets a "stop" flag that the main thread sets and the sum checks before every
// step; but the flag is a plain Bool with no lock, written on one thread and read on another: a
// data race (the worker is not even promised to ever see the write).
import Foundation
import LabKit
import Cancellation

final class CancellationWrongUnlockedFlagJob {
    var stop = false
}

final class CancellationWrongUnlockedFlag: CancellationController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var job: CancellationWrongUnlockedFlagJob?  // main thread only

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) {
        numbers.append(number)
        recalculate()
    }

    func removeAll(keepingFirst count: Int) {
        numbers.removeSubrange(count...)
        recalculate()
    }

    private func recalculate() {
        job?.stop = true
        let mine = CancellationWrongUnlockedFlagJob()
        job = mine
        screen.recalculating.set(true)
        let snapshot = numbers
        let adder = self.adder, screen = self.screen
        Thread.detachNewThread {
            var total = 0
            for number in snapshot {
                if mine.stop { return }
                total = adder.add(number, to: total)
            }
            let result = total
            DispatchQueue.main.async {
                if mine.stop { return }
                screen.total.setText(String(result))
                screen.recalculating.set(false)
            }
        }
    }
}
