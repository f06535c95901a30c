// WRONG: a detached task instead: it is not tied to anything either; it holds the view model
// off the main actor and lets go of it there.
import LabKit
import TaskLifetime

@MainActor
final class TaskLifetimeWrongTaskDetached: ScreenController, TaskLifetimeController {
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
        let feed = self.feed
        Task.detached {
            for number in 1...FeedServer.pages {
                guard let page = try? await feed.nextPage(number) else { return }
                await self.show(page)
            }
        }
    }

    func disappear() {
        // nothing to cancel
    }

    private func show(_ page: [String]) {
        stories += page
        screen.list.setText(stories.joined(separator: ", "))
        screen.status.setText("\(stories.count) stories")
    }
}
