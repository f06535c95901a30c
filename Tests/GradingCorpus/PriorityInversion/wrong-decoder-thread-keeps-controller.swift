// WRONG: the scheduling is right (one decode thread, always the most urgent photo next, the
// tapped photo raised to urgent, shown on main), but the decode thread runs a method of the
// controller, so it keeps the controller alive. When the user leaves while it still decodes, the
// thread's release is the last one: the controller, and the photo viewer it holds, die on that
// thread, not on the main thread.
import Foundation
import LabKit
import PriorityInversion

final class PriorityInversionWrongDecoderThreadKeepsController: PriorityInversionController, @unchecked Sendable {
    private enum Priority: Int { case low, normal, urgent }
    private struct Job {
        let name: String
        var priority: Priority
        let order: Int
    }

    private let screen: PriorityInversionScreen
    private let decoder: PriorityInversionDecoder
    private let lock = NSLock()
    private var jobs: [Job] = []  // guarded by `lock`
    private var added = 0  // guarded by `lock`
    private var threadRunning = false  // guarded by `lock`
    private var done: [String: DecodedPhoto] = [:]  // guarded by `lock`
    private var waitingFor: Set<String> = []  // guarded by `lock`

    init(environment: PriorityInversionEnvironment) {
        screen = environment.screen
        decoder = environment.decoder
    }

    private func add(_ name: String, priority: Priority) {
        let startThread = lock.withLock { () -> Bool in
            added += 1
            jobs.append(Job(name: name, priority: priority, order: added))
            guard !threadRunning else { return false }
            threadRunning = true
            return true
        }
        if startThread { Thread.detachNewThread { [self] in drain() } }
    }

    private func takeNext() -> String? {
        lock.withLock { () -> String? in
            guard let best = jobs.indices.max(by: { a, b in
                (jobs[a].priority.rawValue, -jobs[a].order) < (jobs[b].priority.rawValue, -jobs[b].order)
            }) else {
                threadRunning = false
                return nil
            }
            return jobs.remove(at: best).name
        }
    }

    private func drain() {
        while let name = takeNext() {
            let photo = decoder.decode(name)
            let wanted = lock.withLock { () -> Bool in
                done[name] = photo
                return waitingFor.contains(name)
            }
            if wanted {
                let screen = self.screen
                DispatchQueue.main.async { screen.show(photo) }
            }
        }
    }

    func showThumbnails(_ names: [String]) {
        for name in names { add(name, priority: .normal) }
    }

    func prefetch(_ names: [String]) {
        for name in names { add(name, priority: .low) }
    }

    func open(_ name: String) {
        let photo = lock.withLock { () -> DecodedPhoto? in
            if let photo = done[name] { return photo }
            waitingFor.insert(name)
            for index in jobs.indices where jobs[index].name == name { jobs[index].priority = .urgent }
            return nil
        }
        if let photo { screen.show(photo) }
    }
}
