// ATTACK: shadow-scenario
// Exports a global named like the lab's scenario type (a stand-in whose story never drives the
// exercise), hoping the catalog that registers the exercise picks it instead of the real one.
import Foundation
import LabKit
import ListAdder

public enum StandInLab: LabScenario {
    public typealias Environment = ListAppEnvironment
    public typealias Subject = ListAdderController
    public static var info: LabInfo { ListAdder.ListAdderLab.info }
    public static var variants: [LabVariant<ListAppEnvironment, ListAdderController>] { ListAdder.ListAdderLab.variants }
    public static func play(_ variant: LabVariant<ListAppEnvironment, ListAdderController>, in run: ScenarioRun) {
        if variant.kind == .exercise { return }  // the exercise is never driven, so nothing can catch it
        ListAdder.ListAdderLab.play(variant, in: run)
    }
}

/// LabCatalog.swift imports this module beside ListAdder; this value wins its `ListAdderLab.self`.
public let ListAdderLab = StandInLab.self

/// The broken code, unchanged.
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
        Thread.detachNewThread {
            var total = 0
            let count = self.numbers.count
            for index in 0..<count { total = self.adder.add(self.numbers[index], to: total) }
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
