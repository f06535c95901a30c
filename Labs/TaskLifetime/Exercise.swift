import LabKit
import TaskLifetime

/// EXERCISE: a copy of the broken variant. When the user leaves, stop the loading: no update and
/// no request after that, and the view model freed on the main thread. Check it with
/// `make check LAB=task-lifetime`.
/// The news screen's view model: it loads the feed when the screen appears.
@MainActor
final class TaskLifetimeExercise: ScreenController, TaskLifetimeController {
    private let screen: FeedScreen
    private let feed: FeedServer
    private var stories: [String] = []

    nonisolated init(environment: TaskLifetimeEnvironment) {
        screen = environment.screen
        feed = environment.feed
        super.init(screenName: TaskLifetimeLab.screenName)
    }

    func appear() {
        // TODO: fix this: nobody keeps this task, so nobody can cancel it, and it uses self: the task holds
        // the view model (and its screen) until the last page is in, long after the user left.
        Task {
            for number in 1...FeedServer.pages {
                guard let page = try? await feed.nextPage(number) else { return }
                // TODO: fix this: nothing asks, after the await, whether the screen is still there.
                show(page)
            }
        }
    }

    func disappear() {
        // TODO: fix this: leaving the screen does nothing to the task that is loading for it.
    }

    private func show(_ page: [String]) {
        stories += page
        screen.list.setText(stories.joined(separator: ", "))
        screen.status.setText("\(stories.count) stories")
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeTaskLifetimeExercise(_ environment: TaskLifetimeEnvironment) -> TaskLifetimeController {
    TaskLifetimeExercise(environment: environment)
}
