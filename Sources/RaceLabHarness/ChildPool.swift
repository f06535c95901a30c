import CRaceLabSupport
import Foundation

/// Independent child runs, at most `jobs` at a time. A child spends most of its life sleeping
/// in checkpoints and waiting for the main run loop, so several side by side use a machine that
/// one at a time leaves idle. Every run is still one child with its own seed: the verdicts do
/// not depend on which ran beside which (calibration is measured with the same parallelism).
public enum ChildPool {
    /// The default number of children at once: four times the cores it may use, at least 2. Children
    /// mostly wait; on 2 cores `racelab run --all --runs 3` took 103 s with 4 at once, 64 s with
    /// 8 and 71 s with 12 (the cores saturated). `RACELAB_JOBS` overrides.
    public static func defaultJobs(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        if let text = environment["RACELAB_JOBS"], let jobs = Int(text), jobs >= 1 { return min(jobs, 64) }
        return max(2, usableCPUs * 4)
    }

    /// The CPUs the harness may run on: `taskset -c 1 racelab ...` has 1, whatever the machine.
    public static var usableCPUs: Int { Int(rl_usable_cpus()) }

    /// The default for a run of `children` children that mostly wait (one lab's check): all of
    /// them at once when that is more than `defaultJobs`, unless `RACELAB_JOBS` says otherwise.
    public static func jobs(forAll children: Int, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Int
    {
        if environment["RACELAB_JOBS"] != nil { return defaultJobs(environment: environment) }
        return min(max(defaultJobs(environment: environment), children), 64)
    }

    /// `body(0) ... body(count - 1)`, at most `jobs` at once, results in order, started in index
    /// order. Each of `jobs` threads of its own takes the next index when it is free: a child run
    /// blocks its thread for seconds, and Dispatch's pool would run only about as many such
    /// blocks at once as there are cores.
    public static func map<T: Sendable>(_ count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        if jobs <= 1 || count == 1 { return (0..<count).map(body) }
        let results = IndexedResults<T>(count: count)
        let next = Counter()
        let workers = min(jobs, count)
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<workers {
            let thread = Thread {
                while true {
                    let index = next.next() - 1
                    guard index < count else { break }
                    results.set(index, body(index))
                }
                done.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in 0..<workers { done.wait() }
        return results.all
    }
}

/// Results filled in by index from several threads; `all` once every index is set.
public final class IndexedResults<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [T?]

    public init(count: Int) { values = Array(repeating: nil, count: count) }

    public func set(_ index: Int, _ value: T) { lock.withLock { values[index] = value } }

    public var all: [T] { lock.withLock { values.map { $0! } } }

    /// The values set so far, in index order.
    public var finished: [T] { lock.withLock { values.compactMap { $0 } } }
}

/// A count that several threads add to (progress lines).
public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    public init() {}

    /// Adds one and returns the new value.
    public func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }

    public var value: Int { lock.withLock { count } }
}
