// VALID: each visit has a number; disappear() moves it on and cancels the task. After each
// await the task compares its number with the current one, on the main actor.
import LabKit
import TaskLifetime

@MainActor
final class TaskLifetimeValidGenerationToken: ScreenController, TaskLifetimeController {
    private let screen: FeedScreen
    private let feed: FeedServer
    private var stories: [String] = []
    private var loading: Task<Void, Never>?
    private var generation = 0
    nonisolated init(environment: TaskLifetimeEnvironment) {
        screen = environment.screen
        feed = environment.feed
        super.init(screenName: TaskLifetimeLab.screenName)
    }

    func appear() {
        generation += 1
        let mine = generation
        loading = Task { [weak self, feed] in
            for number in 1...FeedServer.pages {
                guard let page = try? await feed.nextPage(number) else { return }
                guard let self, self.generation == mine else { return }
                self.show(page)
            }
        }
    }

    func disappear() {
        generation += 1
        loading?.cancel()
    }

    private func show(_ page: [String]) {
        stories += page
        screen.list.setText(stories.joined(separator: ", "))
        screen.status.setText("\(stories.count) stories")
    }
}
