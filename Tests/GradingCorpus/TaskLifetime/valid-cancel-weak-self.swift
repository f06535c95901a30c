// VALID: the task is kept and cancelled when the screen goes, and it holds self weakly,
// looked up after each await.
import LabKit
import TaskLifetime

@MainActor
final class TaskLifetimeValidCancelWeakSelf: ScreenController, TaskLifetimeController {
    private let screen: FeedScreen
    private let feed: FeedServer
    private var stories: [String] = []
    private var loading: Task<Void, Never>?

    nonisolated init(environment: TaskLifetimeEnvironment) {
        screen = environment.screen
        feed = environment.feed
        super.init(screenName: TaskLifetimeLab.screenName)
    }

    func appear() {
        loading = Task { [weak self, feed] in
            for number in 1...FeedServer.pages {
                guard let page = try? await feed.nextPage(number) else { return }
                guard let self, !Task.isCancelled else { return }
                self.show(page)
            }
        }
    }

    func disappear() {
        loading?.cancel()
        loading = nil
    }

    private func show(_ page: [String]) {
        stories += page
        screen.list.setText(stories.joined(separator: ", "))
        screen.status.setText("\(stories.count) stories")
    }
}
