// WRONG: weak self and no cancel: the updates stop (self is nil), but the task keeps asking
// the server for pages for a screen that is gone.
import LabKit
import TaskLifetime

@MainActor
final class TaskLifetimeWrongWeakSelfNoCancel: ScreenController, TaskLifetimeController {
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
        Task { [weak self, feed] in
            for number in 1...FeedServer.pages {
                guard let page = try? await feed.nextPage(number) else { return }
                self?.show(page)
            }
        }
    }

    func disappear() {
        // the weak self is meant to be enough
    }

    private func show(_ page: [String]) {
        stories += page
        screen.list.setText(stories.joined(separator: ", "))
        screen.status.setText("\(stories.count) stories")
    }
}
