// WRONG: [weak self], then guard let self at the top: self is strong for the whole task, so
// the task keeps the view model and updates the gone screen.
import LabKit
import TaskLifetime

@MainActor
final class TaskLifetimeWrongGuardLetSelfAtTop: ScreenController, TaskLifetimeController {
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
        Task { [weak self] in
            guard let self else { return }
            for number in 1...FeedServer.pages {
                guard let page = try? await feed.nextPage(number) else { return }
                show(page)
            }
        }
    }

    func disappear() {
        // weak self is meant to be enough
    }

    private func show(_ page: [String]) {
        stories += page
        screen.list.setText(stories.joined(separator: ", "))
        screen.status.setText("\(stories.count) stories")
    }
}
