// WRONG: the task is cancelled, but nothing looks after the await: the page in flight still
// lands on the gone screen.
import LabKit
import TaskLifetime

@MainActor
final class TaskLifetimeWrongCancelNoCheck: ScreenController, TaskLifetimeController {
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
        loading = Task {
            for number in 1...FeedServer.pages {
                guard let page = try? await feed.nextPage(number) else { return }
                show(page)
            }
        }
    }

    func disappear() {
        loading?.cancel()
    }

    private func show(_ page: [String]) {
        stories += page
        screen.list.setText(stories.joined(separator: ", "))
        screen.status.setText("\(stories.count) stories")
    }
}
