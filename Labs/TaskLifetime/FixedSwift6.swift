import LabKit
import TaskLifetime

/// The same fix in Swift 6 terms (built in the Swift 6 language mode, every warning an error),
/// shaped like SwiftUI's `.task`: the screen owns its loading task from `appear()` to
/// `disappear()`. The task holds the view model only for the moment of one update, on the main
/// actor, and a cancelled task asks for nothing more.
@MainActor
final class TaskLifetimeFixedSwift6: ScreenController, TaskLifetimeController {
    private let screen: FeedScreen
    private let feed: FeedServer
    private var stories: [String] = []
    private var visit: Task<Void, Never>?  // the screen's scope: from appear to disappear

    nonisolated init(environment: TaskLifetimeEnvironment) {
        screen = environment.screen
        feed = environment.feed
        super.init(screenName: TaskLifetimeLab.screenName)
    }

    // FIX: an isolated deinit runs on the main actor, wherever the last release happens.
    isolated deinit {}

    func appear() {
        visit?.cancel()
        // FIX: the task is tied to the screen's visit, and it names the view model weakly: it is
        // looked up after each await, on the main actor, and only for the moment of one update.
        visit = Task { [weak self, feed] in
            for number in 1...FeedServer.pages {
                guard let page = try? await feed.nextPage(number) else { return }
                guard !Task.isCancelled, let self else { return }
                self.show(page)
            }
        }
    }

    func disappear() {
        // FIX: the visit ends: the task is cancelled, its next check stops it.
        visit?.cancel()
        visit = nil
    }

    private func show(_ page: [String]) {
        stories += page
        screen.list.setText(stories.joined(separator: ", "))
        screen.status.setText("\(stories.count) stories")
    }
}

extension TaskLifetimeLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<TaskLifetimeEnvironment, TaskLifetimeController>] {
        [LabVariant(.fixed, name: "fixed-swift6-visit") { TaskLifetimeFixedSwift6(environment: $0) }]
    }
}
