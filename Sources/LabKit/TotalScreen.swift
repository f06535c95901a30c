import Foundation

/// The screen of the technote's list app: a total at the top and a "recalculating" spinner.
/// Shared by the labs that retell that story (list-adder, ui-off-main, stale-results, ...).
public final class TotalScreen: @unchecked Sendable {
    public let total = ScreenLabel("total", text: "0", tracksItsRelease: true)
    public let recalculating = ScreenFlag("recalculating", tracksItsRelease: true)
    /// A view: released on the main thread, or a fixed variant fails (`ScreenLifetime`).
    private let lifetime = ScreenLifetime("total screen")

    public init() {}

    /// The user left the screen: later updates are recorded as rule violations.
    public func close() {
        total.close()
        recalculating.close()
    }
}

/// The slow part of the list app: adding one number to a running total takes a while, which is
/// why the app sums on another thread. Each step is a checkpoint named "adder.step": the moment
/// the race window is open. Stateless, so any thread may use it.
public final class SlowAdder: Sendable {
    public init() {}

    public func add(_ number: Int, to total: Int) -> Int {
        SlowWork.step()
        ThreadHold.reached(hit: Checkpoint.hit("adder.step"))
        return total + number
    }

    /// How many steps all sums took since the iteration began (work done, wasted or not).
    @_spi(LabAuthoring) public static var stepsTaken: Int { Checkpoint.hits("adder.step") }
}

/// What the list-app labs hand each variant: the screen, the slow adder, and the starting list.
public struct ListAppEnvironment: Sendable {
    public let screen: TotalScreen
    public let adder: SlowAdder
    public let initialNumbers: [Int]

    public init(screen: TotalScreen, adder: SlowAdder, initialNumbers: [Int]) {
        self.screen = screen
        self.adder = adder
        self.initialNumbers = initialNumbers
    }
}
