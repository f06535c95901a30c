import LabKit
import TaskLifetime

/// The view model keeps its task, cancels it when the screen goes, and holds itself weakly inside.
@MainActor
final class TaskLifetimeFixed: ScreenController, TaskLifetimeController {
    private let screen: FeedScreen
    private let feed: FeedServer
    private var stories: [String] = []
    private var loading: Task<Void, Never>?  // main actor only

    nonisolated init(environment: TaskLifetimeEnvironment) {
        screen = environment.screen
        feed = environment.feed
        super.init(screenName: TaskLifetimeLab.screenName)
    }

    func appear() {
        loading?.cancel()
        // FIX: the handle is kept, so the screen can stop its own work; the task holds the view
        // model weakly, so it never keeps it alive while it waits for a page.
        loading = Task { [weak self, feed] in
            for number in 1...FeedServer.pages {
                guard let page = try? await feed.nextPage(number) else { return }
                // FIX: after each await, on the main actor: still wanted? (cancelled, or freed).
                guard !Task.isCancelled, let self else { return }
                self.show(page)
            }
        }
    }

    func disappear() {
        // FIX: the screen goes, its work goes with it: the next request is never sent.
        loading?.cancel()
        loading = nil
    }

    private func show(_ page: [String]) {
        stories += page
        screen.list.setText(stories.joined(separator: ", "))
        screen.status.setText("\(stories.count) stories")
    }
}

extension TaskLifetimeLab {
    public static var solutions: [LabVariant<TaskLifetimeEnvironment, TaskLifetimeController>] {
        [LabVariant(.fixed) { TaskLifetimeFixed(environment: $0) }]
    }
}
