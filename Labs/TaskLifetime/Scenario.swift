import Foundation
@_spi(LabAuthoring) import LabKit
import Synchronization

/// The news screen: a status line and the list of stories. Both are views (main thread only, and
/// released on the main thread); the screen owns a `ScreenLifetime`, so the driver checks where it died.
public final class FeedScreen: @unchecked Sendable {
    public let status = ScreenLabel("feed status", text: "loading", tracksItsRelease: true)
    public let list = ScreenLabel("feed list", tracksItsRelease: true)
    private let lifetime = ScreenLifetime("feed screen")

    public init() {}

    /// The user left: any later update reaches a screen that is gone.
    public func close() {
        status.close()
        list.close()
    }
}

/// The news server, on the harness side. Its fields are relaxed atomics: TSan sees no order in
/// them, so the counting hides no race of the variant's.
public final class FeedServer: Sendable {
    public static let pages = 3
    private let requests = Atomic<Int>(0)
    private let requestsAfterClose = Atomic<Int>(0)
    private let screenGone = Atomic<Bool>(false)

    public init() {}

    /// Fetches page `number` (1 to 3) of the feed. Not isolated to anything: it runs on the
    /// cooperative pool, and a task held here holds one pool thread, never the main thread. Like
    /// a URL session, it refuses a request from a task that was already cancelled.
    @concurrent
    public func nextPage(_ number: Int) async throws -> [String] {
        // Whether the user had left is read before the cancellation is checked (the scenario marks
        // the leaving after the screen's own cancel): a request that saw the mark cannot have passed
        // the check of a task its screen cancelled. Fenced for arm64; TSan sees no fence.
        let userHadLeft = screenGone.load(ordering: .relaxed)
        atomicMemoryFence(ordering: .acquiring)
        try Task.checkCancellation()
        requests.add(1, ordering: .relaxed)
        if userHadLeft { requestsAfterClose.add(1, ordering: .relaxed) }
        // The request is out: while it is on its way, the user may leave.
        await SuspensionPoint.reach("feed.nextPage")
        return (1...3).map { "story \(3 * (number - 1) + $0)" }
    }

    /// The scenario marks the moment the user left (after the cancel, fenced: see `nextPage`).
    func userLeft() { atomicMemoryFence(ordering: .releasing); screenGone.store(true, ordering: .relaxed) }
    var requestCount: Int { requests.load(ordering: .relaxed) }
    var requestsSinceTheUserLeft: Int { requestsAfterClose.load(ordering: .relaxed) }
}

/// What each variant is handed: its screen and the server.
public struct TaskLifetimeEnvironment: Sendable {
    public let screen: FeedScreen
    public let feed: FeedServer
}

/// The screen's view model. Its actions are the user's, on the main actor.
@MainActor
public protocol TaskLifetimeController: ScreenController {
    /// The screen appears: it starts loading the feed, page after page.
    func appear()
    /// The user leaves the screen; right after this the app lets go of the view model.
    func disappear()
}

public enum TaskLifetimeLab: LabScenario {
    public static let screenName = "task-lifetime feed screen"

    public static let info = LabInfo(
        id: "task-lifetime",
        title: "A screen's task outlives the screen",
        source: "the Swift concurrency track (no source article): unstructured tasks started by a view and never cancelled, retold",
        bug: "the view model starts Task { ... self ... } when the screen appears and never cancels it: after the user leaves, the task goes on loading, updates the gone screen and keeps the view model alive until it ends",
        invariants: [
            "no update reaches the screen after the user left it",
            "no request for a page is sent after the user left",
            "the view model is freed once its work settles, on the main thread",
        ],
        expectedDetectors: [.invariant],
        defaultIterations: [.scripted: 3, .stress: 60],
        runsTasks: true
    )

    public static let variants: [LabVariant<TaskLifetimeEnvironment, TaskLifetimeController>] = [
        LabVariant(.broken) { TaskLifetimeBroken(environment: $0) },
    ]

    public static func play(_ variant: LabVariant<TaskLifetimeEnvironment, TaskLifetimeController>, in run: ScenarioRun) {
        MainActor.assumeIsolated { playOnMain(variant, in: run) }
    }

    @MainActor
    static func playOnMain(_ variant: LabVariant<TaskLifetimeEnvironment, TaskLifetimeController>, in run: ScenarioRun) {
        _ = DeallocationLog.shared.drain()
        let screen = FeedScreen(), feed = FeedServer()
        var controller: TaskLifetimeController? = variant.make(TaskLifetimeEnvironment(screen: screen, feed: feed))

        func userLeaves() {
            run.user("leaves the screen") {
                controller?.disappear()
                screen.close()  // the screen is gone: later updates reach a dead screen
                feed.userLeft()
                controller = nil  // the app's navigation lets go of the view model
            }
        }

        switch run.mode {
        case .scripted:
            // The screen appears; while its request for page 1 is on its way, the user leaves.
            // (Exploration moves that moment to every other request in turn.)
            let firstPage = run.pause(at: "feed.nextPage", hit: 1)
            run.user("opens the news screen") { controller?.appear() }
            firstPage.whilePaused { userLeaves() }
        case .stress:
            run.user("opens the news screen") { controller?.appear() }
            run.randomPause(upTo: 3)
            userLeaves()
        }

        run.settle()
        checkAfterLeaving(feed, in: run)
    }

    /// Once the work settled: no request after the user left, and the view model died, on main.
    static func checkAfterLeaving(_ feed: FeedServer, in run: ScenarioRun) {
        let late = feed.requestsSinceTheUserLeft
        run.record("requests after leaving", Double(late))
        run.expect(late == 0,
                   "\(late) request(s) for a page were sent after the user left the screen: its task was still loading")
        let deallocations = DeallocationLog.shared.drain().filter { $0.screenName == screenName }
        if deallocations.isEmpty {
            run.fail("the view model was never freed after the user left: something still holds it")
        }
        for entry in deallocations where !entry.onMainThread {
            run.fail("the view model's deinit ran on a background thread (thread \(entry.threadID)), not on main")
        }
    }
}
