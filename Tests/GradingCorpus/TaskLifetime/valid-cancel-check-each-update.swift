// VALID: self is held strongly, but the task is cancelled when the screen goes and checks
// Task.isCancelled before each update: it ends at the await in flight, on the main actor, and
// lets go of the view model there.
import LabKit
import TaskLifetime

@MainActor
final class TaskLifetimeValidCancelCheckEachUpdate: ScreenController, TaskLifetimeController {
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
                if Task.isCancelled { return }
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
