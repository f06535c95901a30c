@_spi(LabAuthoring) import LabKit

/// How a ``RaceTest`` tries the code.
public enum RacePass: Sendable, Equatable {
    /// Seeded random timing, `iterations` times: while the bodies run, one of their threads is
    /// stopped now and then, for a random moment, at its next synchronisation point (a lock, an
    /// atomic, a queue, any call ThreadSanitizer intercepts), where another thread's step can
    /// change the outcome; and a random delay at every ``raceCheckpoint(_:)``.
    case stress(iterations: Int)
    /// Every single stop, in turn: one iteration counts the bodies' arrivals at
    /// ``raceCheckpoint(_:)``, then one iteration per arrival holds that one thread there while
    /// the others go on. Deterministic; needs checkpoints in the code under test, and tries at
    /// most `iterations` arrivals.
    case explore(iterations: Int)
    /// For an ``AsyncRace``: Swift concurrency's jobs run one at a time, RaceLab choosing which
    /// runs next: first in the order they came, then each single other choice at a point where
    /// two or more were ready, then priorities drawn from the seed. One seed, one order: the
    /// failure's replay command runs the same jobs in the same order. A job is a stretch of a
    /// task between two real suspensions (an `await` that waits: a sleep, a continuation, a
    /// busy actor); an `await` of something that answers at once is no point to choose at.
    case async(iterations: Int)

    var mode: RunMode {
        switch self {
        case .stress: .stress
        case .explore: .explore
        case .async: .async
        }
    }

    var iterations: Int {
        switch self {
        case .stress(let iterations), .explore(let iterations), .async(let iterations): max(iterations, 1)
        }
    }
}

/// A named point in the code under test, for ``RacePass/explore(iterations:)`` to stop a thread
/// at and for ``RacePass/stress(iterations:)`` to delay it at. Costs a counter outside a
/// ``RaceTest``; place one between two steps that another thread must not come between.
public func raceCheckpoint(_ name: StaticString) {
    Checkpoint.hit(name)
}
