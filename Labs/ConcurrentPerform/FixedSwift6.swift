import LabKit
import ConcurrentPerform

/// The same fix in Swift 6 terms: structured concurrency. Each row is a child task of a task
/// group that *returns* its row's brightness; only the parent adds the results up, one at a time,
/// as they come back. The total is a local of the parent, so no child can reach it, and the
/// compiler checks that everything a child captures is `Sendable` (the photo is).
@MainActor
final class ConcurrentPerformFixedTaskGroup: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen

    nonisolated init(screen: ConcurrentPerformScreen) {
        self.screen = screen
    }

    // The harness calls this on the main thread; `assumeIsolated` checks that it is (and traps if
    // not) instead of trusting a comment.
    nonisolated func measure(_ photo: ConcurrentPerformPhoto) {
        MainActor.assumeIsolated { start(photo) }
    }

    private func start(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        // This task inherits the main actor: it starts here and resumes here after the group,
        // so it touches the screen (and loads `self`) only on the main thread.
        Task { [weak self] in
            let total = await withTaskGroup(of: Int.self) { group in
                for row in 0..<photo.rowCount {
                    group.addTask { photo.brightness(ofRow: row) }  // FIX: a child returns its row's value and writes nothing shared.
                }
                var total = 0
                for await brightness in group { total += brightness }  // FIX: only the parent adds, one result at a time.
                return total
            }
            self?.show(total)
        }
    }

    private func show(_ total: Int) {
        screen.brightness.setText(String(total))
        screen.measuring.set(false)
    }
}

extension ConcurrentPerformLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<ConcurrentPerformScreen, ConcurrentPerformController>] {
        [LabVariant(.fixed, name: "fixed-task-group", runsTasks: true) { ConcurrentPerformFixedTaskGroup(screen: $0) }]
    }
}
