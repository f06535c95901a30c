import Foundation
@_spi(LabAuthoring) import LabKit

/// A number formatter like Foundation's `NumberFormatter`: fine to call again and again, not
/// fine to share between threads. It builds each text in a buffer it keeps and reuses, one digit
/// at a time (a checkpoint "format.digit" at each): two threads in here at once mix their digits.
public final class PropertyStrategiesFormatter {
    private var buffer: [Character] = []

    public init() {}

    /// "1,520": the digits in groups of three.
    public func string(from value: Int) -> String {
        buffer.removeAll(keepingCapacity: true)
        let digits = Array(String(value.magnitude))
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { buffer.append(",") }
            Checkpoint.hit("format.digit")
            buffer.append(digit)
        }
        return (value < 0 ? "-" : "") + String(buffer)
    }

    /// The same text, worked out quietly (for the checks).
    static func expected(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }
}

/// The user's actions, as every variant must offer them. All are called on the main thread.
public protocol PropertyStrategiesController: AnyObject {
    /// The user adds a number; the total is recalculated by an operation.
    func add(_ number: Int)
    /// The user changes the "slow motion" setting: a pause of this many milliseconds between two
    /// numbers of a sum. It is for the sums started from now on.
    func setSlowMotion(milliseconds: Int)
    /// The user comes back to the screen: show the newest total there is.
    func refresh()
}

public enum PropertyStrategiesLab: LabScenario {
    public static let info = LabInfo(
        id: "property-strategies",
        title: "An operation whose properties have no thread-safety strategy",
        source: "source article 000 (ListAdder technote): AdderOperation's properties and their strategies, listings 13 and 14",
        bug: "a running operation is reconfigured from the main thread, its running total is read before it finished, "
            + "and one formatter is shared by every operation",
        invariants: [
            "every total the screen shows is the sum of a list the user had, formatted",
            "once quiet, the screen shows the sum of the current list",
        ],
        expectedDetectors: [.tsan, .invariant],
        defaultIterations: [.scripted: 3, .stress: 100]
    )

    public static let variants: [LabVariant<ListAppEnvironment, PropertyStrategiesController>] = [
        LabVariant(.broken) { PropertyStrategiesBroken(environment: $0) },
    ]

    public static func play(_ variant: LabVariant<ListAppEnvironment, PropertyStrategiesController>, in run: ScenarioRun) {
        let screen = TotalScreen()
        var list = [120, 340, 560]
        var sumsTheUserHad: Set<Int> = [list.reduce(0, +)]
        let controller = variant.make(ListAppEnvironment(screen: screen, adder: SlowAdder(), initialNumbers: list))

        func adds(_ number: Int) {
            list.append(number)
            sumsTheUserHad.insert(list.reduce(0, +))
            run.user("adds \(number)") { controller.add(number) }
        }
        /// The screen may show "0" (nothing summed yet) or the formatted sum of a list the user had.
        func checkShown(_ when: String) {
            let shown = screen.total.text()
            let allowed = Set(sumsTheUserHad.map(PropertyStrategiesFormatter.expected)).union(["0"])
            run.expect(allowed.contains(shown), "\(when), the screen shows \(shown), which is no list's total")
        }
        func comesBack() {
            run.user("comes back to the screen") { controller.refresh() }
            checkShown("after the user came back")
        }

        switch run.mode {
        case .scripted:
            // A sum of four numbers is held in its second step: the user turns slow motion on
            // and comes back to the screen. Then, while that sum formats its total (held at its
            // first digit), the user adds another number, and the newer sum runs to its end.
            let midSum = run.pause(at: "adder.step", hit: 2)
            adds(500)
            midSum.whilePaused {
                run.user("turns slow motion on") { controller.setSlowMotion(milliseconds: 1) }
                comesBack()
            }
            let formatting = run.pause(at: "format.digit", hit: Checkpoint.hits("format.digit") + 1)
            formatting.whilePaused {
                adds(700)
                run.settle(timeout: 1)
            }
        case .stress:
            adds(100 + Int(run.random.next(upperBound: UInt64(900))))  // a sum to show at the end
            for _ in 0..<4 {
                run.randomPause(upTo: 3)
                switch run.random.next(upperBound: UInt64(4)) {
                case 0: run.user("turns slow motion \(list.count % 2 == 0 ? "on" : "off")") {
                    controller.setSlowMotion(milliseconds: list.count % 2 == 0 ? 1 : 0)
                }
                case 1: comesBack()
                default: adds(100 + Int(run.random.next(upperBound: UInt64(900))))
                }
            }
        }

        run.settle(until: { !screen.recalculating.isOn() })
        comesBack()
        let expected = PropertyStrategiesFormatter.expected(list.reduce(0, +))
        let shown = screen.total.text()
        run.expect(shown == expected, "once quiet, the screen shows \(shown), but the list sums to \(expected)")
        // Every value the label ever took, not only the ones the checks above happened to read.
        let allowed = Set(sumsTheUserHad.map(PropertyStrategiesFormatter.expected)).union(["0"])
        let strays = screen.total.textsShown.filter { !allowed.contains($0) }
        run.expect(strays.isEmpty, "at some moment the screen showed \(strays.map { "\"\($0)\"" }.joined(separator: ", ")), no list's total")
        withExtendedLifetime(controller) {}
    }
}
