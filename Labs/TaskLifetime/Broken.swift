import LabKit

/// The news screen's view model: it loads the feed when the screen appears.
@MainActor
final class TaskLifetimeBroken: ScreenController, TaskLifetimeController {
    private let screen: FeedScreen
    private let feed: FeedServer
    private var stories: [String] = []

    nonisolated init(environment: TaskLifetimeEnvironment) {
        screen = environment.screen
        feed = environment.feed
        super.init(screenName: TaskLifetimeLab.screenName)
    }

    func appear() {
        // BUG: nobody keeps this task, so nobody can cancel it, and it uses self: the task holds
        // the view model (and its screen) until the last page is in, long after the user left.
        Task {
            for number in 1...FeedServer.pages {
                guard let page = try? await feed.nextPage(number) else { return }
                // BUG: nothing asks, after the await, whether the screen is still there.
                show(page)
            }
        }
    }

    func disappear() {
        // BUG: leaving the screen does nothing to the task that is loading for it.
    }

    private func show(_ page: [String]) {
        stories += page
        screen.list.setText(stories.joined(separator: ", "))
        screen.status.setText("\(stories.count) stories")
    }
}
