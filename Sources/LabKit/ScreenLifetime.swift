import CRaceLabSupport
import Foundation

/// A view's life, for the rule that a UIKit object must be released on the main thread. A lab's
/// screen (`TotalScreen`, the photo table, the Mandelbrot view) owns one of these and nothing
/// else does, so this object dies in the screen's own deinit, on the thread of the screen's last
/// release: the thread where the controller that owned the screen died, if it was the last owner.
public final class ScreenLifetime: Sendable {
    let name: String
    /// A part of a screen (its label, its spinner): its release off main is news only when the
    /// screen itself did not die off main on the same thread just then.
    let isPart: Bool
    let iteration: Int64
    /// Where the screen made it (its class), for the failure's location.
    let file: String
    let line: Int

    public init(_ name: String, isPart: Bool = false, file: StaticString = #filePath, line: UInt = #line) {
        self.name = name
        self.isPart = isPart
        self.file = "\(file)"
        self.line = Int(line)
        iteration = ScreenLifetimes.shared.born()
    }

    deinit {
        if !Thread.isMainThread { TraceFile.note(.failure, "\(name) released here") }
        ScreenLifetimes.shared.died(self)
    }
}

/// Every screen alive, by the iteration that made it, and where each one that died was released.
@_spi(LabAuthoring) public final class ScreenLifetimes: @unchecked Sendable {
    public struct Release: Sendable, Equatable {
        public let screenName: String
        public let isPart: Bool
        public let onMainThread: Bool
        public let threadID: Int64
        public let file: String
        public let line: Int
    }

    public static let shared = ScreenLifetimes()
    private let lock = NSLock()
    private var iteration: Int64 = 0
    private var alive: [Int64: Int] = [:]
    private var released: [Release] = []

    /// A new iteration: screens made from now on belong to it.
    public func beginIteration(_ number: Int64) { lock.withLock { iteration = number } }

    func born() -> Int64 {
        lock.withLock {
            alive[iteration, default: 0] += 1
            return iteration
        }
    }

    func died(_ lifetime: ScreenLifetime) {
        let release = Release(
            screenName: lifetime.name, isPart: lifetime.isPart, onMainThread: Thread.isMainThread,
            threadID: rl_current_thread_id(),
            file: lifetime.file, line: lifetime.line)
        lock.withLock {
            alive[lifetime.iteration, default: 0] -= 1
            released.append(release)
        }
    }

    /// Screens made in `iteration` that are still alive.
    public func alive(in iteration: Int64) -> Int { lock.withLock { alive[iteration] ?? 0 } }

    /// Waits (on the main thread, spinning its run loop, where queued blocks let go of what they
    /// hold) until no screen of `iteration` is alive, or the lab is quiet with one still alive
    /// (nothing left running will let go of it: something keeps it), or `timeout` passed; then
    /// every release recorded since the last call. A screen still alive then is left out.
    public func awaitReleases(of iteration: Int64, timeout: Double) -> [Release] {
        var deadline = LabDeadline(seconds: timeout)
        var looks = QuietLooks()
        while alive(in: iteration) > 0 && !deadline.hasPassed() && !looks.agreed {
            MainRunLoopTurn.take(napping: 0.001)
            _ = looks.agree(LabQuiet.now)
        }
        return drain()
    }

    /// Every release recorded since the last call.
    public func drain() -> [Release] {
        lock.withLock {
            defer { released.removeAll() }
            return released
        }
    }
}
