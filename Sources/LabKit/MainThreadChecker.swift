import CRaceLabSupport
import Foundation

/// One broken UI rule: an access off the main thread, or an update to a dismissed screen.
public struct MainThreadViolation: Codable, Sendable, Equatable {
    public let what: String
    public let file: String
    public let line: Int
    public let threadID: Int64
}

/// Our Main Thread Checker: UI stand-ins call `check`, which records (never crashes) any access
/// made off the main thread, with the caller's file:line. The driver turns the records into
/// invariant failures at the end of each iteration.
/// (Harness bookkeeping; its lock is only taken when a rule is already broken.)
@_spi(LabAuthoring) public final class MainThreadChecker: @unchecked Sendable {
    public static let shared = MainThreadChecker()

    private let lock = NSLock()
    private var violations: [MainThreadViolation] = []

    public func check(_ what: @autoclosure () -> String, file: StaticString, line: UInt) {
        guard !Thread.isMainThread else { return }
        record("off the main thread: \(what())", file: file, line: line)
    }

    /// Record a broken UI rule, whatever the thread.
    public func record(_ what: String, file: StaticString, line: UInt) {
        TraceFile.note(.failure, what)  // on the offending thread, at the moment it happens
        let violation = MainThreadViolation(
            what: what, file: "\(file)", line: Int(line), threadID: rl_current_thread_id())
        lock.lock()
        violations.append(violation)
        lock.unlock()
    }

    /// Everything recorded since the last call.
    @_spi(LabAuthoring) public func drain() -> [MainThreadViolation] {
        lock.lock()
        defer { lock.unlock() }
        let drained = violations
        violations.removeAll()
        return drained
    }
}
