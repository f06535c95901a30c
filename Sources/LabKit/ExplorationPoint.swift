import Foundation

/// One single-preemption point of a scenario's scripted story: its `pause`-th call of
/// `run.pause(at:hit:)` moved from the checkpoint the story names to the `hit`-th checkpoint
/// arrival off the main thread after it. The thread that arrives there is held while the main
/// thread performs the story's next action, as the story would hold its own.
///
/// A story without a pause is explored with pause 0: the `hit`-th arrival off the main thread
/// in the iteration is held for `timedHold` seconds while the story goes on.
public struct ExplorationPoint: Codable, Sendable, Hashable, CustomStringConvertible {
    /// How long a pause-0 point holds its thread.
    public static let timedHold = 0.03

    /// Which `pause(at:)` call of the iteration (1-based), or 0: none (a timed hold).
    public let pause: Int
    /// 1-based: which arrival off the main thread after that call.
    public let hit: Int

    public init(pause: Int, hit: Int) {
        self.pause = pause
        self.hit = hit
    }

    /// "2:7" (pause 2, hit 7), as `--point` takes it.
    public var description: String { "\(pause):\(hit)" }

    public init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let pause = Int(parts[0]), let hit = Int(parts[1]), pause >= 0, hit >= 1 else {
            return nil
        }
        self.init(pause: pause, hit: hit)
    }

    /// The points to explore after a survey that counted, for each pause of the story, the
    /// arrivals off the main thread after it: every one when they fit in `limit`; otherwise each
    /// pause gets a share of `limit` in proportion to its arrivals, the first ones always (where
    /// most windows open) and the rest spread evenly. `firstPause` numbers the first count (0
    /// for a story without pauses, whose one count is the whole iteration's).
    public static func points(survey: [Int], limit: Int, firstPause: Int = 1) -> [ExplorationPoint] {
        let total = survey.reduce(0, +)
        guard total > 0, limit > 0 else { return [] }
        if total <= limit {
            return survey.enumerated().flatMap { index, count in
                (0..<count).map { ExplorationPoint(pause: index + firstPause, hit: $0 + 1) }
            }
        }
        var points: [ExplorationPoint] = []
        for (index, count) in survey.enumerated() where count > 0 {
            let share = max(1, limit * count / total)
            let first = min(count, max(1, share / 2))
            var hits = Array(1...first)
            let rest = share - first
            if rest > 0 && count > first {
                let step = Double(count - first) / Double(rest)
                hits += (0..<rest).map { first + 1 + Int(Double($0) * step) }.filter { $0 <= count }
            }
            points += Set(hits).sorted().map { ExplorationPoint(pause: index + firstPause, hit: $0) }
        }
        return Array(points.prefix(limit))
    }
}
