// WRONG: the task is cancelled in deinit, which never comes while the task holds self.
import LabKit
import TaskLifetime

@MainActor
final class TaskLifetimeWrongCancelInDeinit: ScreenController, TaskLifetimeController {
    private let screen: FeedScreen
    private let feed: FeedServer
    private var stories: [String] = []
    private var loading: Task<Void, Never>?
    deinit { loading?.cancel() }
    nonisolated init(environment: TaskLifetimeEnvironment) {
        screen = environment.screen
        feed = environment.feed
        super.init(screenName: TaskLifetimeLab.screenName)
    }

    func appear() {
        loading = Task {
            for number in 1...FeedServer.pages {
                guard let page = try? await feed.nextPage(number) else { return }
                if Task.isCancelled { return }
                show(page)
            }
        }
    }

    func disappear() {
        // deinit cancels the task
    }

    private func show(_ page: [String]) {
        stories += page
        screen.list.setText(stories.joined(separator: ", "))
        screen.status.setText("\(stories.count) stories")
    }
}
