import CRaceLabSupport
import Foundation

/// Base for a lab's view-controller stand-in. UIKit objects must die on the main thread; this
/// base records the thread its deinit ran on, so a lab can check where the last release happened.
open class ScreenController {
    public let screenName: String

    public init(screenName: String) {
        self.screenName = screenName
        rl_story_watch(Int(bitPattern: ObjectIdentifier(self)), 1)  // StoryHolds.c: a strong load of it may be held
    }

    deinit {
        rl_story_watch(Int(bitPattern: ObjectIdentifier(self)), 0)
        if !Thread.isMainThread { TraceFile.note(.failure, "deinit of \(screenName) here") }
        DeallocationLog.shared.record(screenName, onMainThread: Thread.isMainThread)
    }
}

/// Where each `ScreenController` was deallocated (scenarios read it; exercises cannot).
@_spi(LabAuthoring) public final class DeallocationLog: @unchecked Sendable {
    public struct Entry: Sendable, Equatable {
        public let screenName: String
        public let onMainThread: Bool
        public let threadID: Int64
    }

    public static let shared = DeallocationLog()
    private let lock = NSLock()
    private var entries: [Entry] = []

    func record(_ name: String, onMainThread: Bool) {
        let entry = Entry(screenName: name, onMainThread: onMainThread, threadID: rl_current_thread_id())
        lock.lock()
        entries.append(entry)
        lock.unlock()
    }

    /// Everything recorded since the last call.
    public func drain() -> [Entry] {
        lock.lock()
        defer { lock.unlock() }
        let drained = entries
        entries.removeAll()
        return drained
    }
}
