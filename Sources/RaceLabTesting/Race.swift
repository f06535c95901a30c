/// One race to try: bodies that run at the same time, each on a thread of its own, and the check
/// to make once every one of them has returned.
///
/// Make a fresh one for every iteration (``RaceTest/run(_:)`` asks for one each time), so that
/// no iteration sees what an earlier one left behind:
///
/// ```swift
/// Race([
///     { for _ in 0..<50 { counter.record("home") } },
///     { for _ in 0..<50 { counter.record("home") } }
/// ]) {
///     counter.hits("home") == 100 ? nil : "\(100 - counter.hits("home")) of 100 hits were lost"
/// }
/// ```
public struct Race {
    let bodies: [() -> Void]
    let check: () -> String?

    /// - Parameters:
    ///   - bodies: two or more closures, each run on a thread of its own, all at once.
    ///   - check: run after every body has returned, on the thread that started them: nil when
    ///     all is well, else what went wrong, in words (it is the failure's message).
    public init(_ bodies: [() -> Void], check: @escaping () -> String? = { nil }) {
        precondition(bodies.count >= 2, "a race needs two or more bodies")
        self.bodies = bodies
        self.check = check
    }
}

/// One race of async code to try: bodies that start at the same time, each as a task of its
/// own, and the check to make once every one of them has returned. For ``RacePass/async(iterations:)``,
/// which orders their jobs; make a fresh one for every iteration:
///
/// ```swift
/// AsyncRace([
///     { _ = await cache.image(7) },
///     { _ = await cache.image(7) }
/// ]) {
///     let downloads = await loader.downloads(of: 7)
///     return downloads == 1 ? nil : "photo 7 was downloaded \(downloads) times"
/// }
/// ```
public struct AsyncRace {
    let bodies: [@Sendable () async -> Void]
    let check: @Sendable () async -> String?

    /// - Parameters:
    ///   - bodies: two or more closures, each run as a task of its own, all started at once.
    ///   - check: run once every body has returned: nil when all is well, else what went wrong.
    public init(_ bodies: [@Sendable () async -> Void], check: @escaping @Sendable () async -> String? = { nil }) {
        precondition(bodies.count >= 2, "a race needs two or more bodies")
        self.bodies = bodies
        self.check = check
    }
}
