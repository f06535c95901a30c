import Foundation
@_spi(LabAuthoring) import LabKit

/// The app's photo cache: big and slow to build, meant to exist once and be shared by everyone.
public final class OnceOnlyInitCache: Sendable {
    /// 1 for the first cache built in an iteration, 2 for a second one (which must never exist).
    public let serial: Int

    init(serial: Int) { self.serial = serial }
}

/// The slow part: building the cache (in a real app, reading its index from disk). Each build is
/// a checkpoint "cache.build", so the harness counts builds without any lock the lab could lean on.
/// Stateless, so any thread may use it.
public final class OnceOnlyInitBuilder: Sendable {
    public init() {}

    public func build() -> OnceOnlyInitCache {
        let serial = Checkpoint.hit("cache.build")
        return OnceOnlyInitCache(serial: serial)
    }

    /// Caches built since the iteration began.
    public static var builds: Int { Checkpoint.hits("cache.build") }
}

/// What each once-only-init variant gets from the harness.
public struct OnceOnlyInitEnvironment {
    public let builder: OnceOnlyInitBuilder
}

/// The app as every variant must offer it: one shared cache, created on first use, asked for
/// from any thread.
///
/// In a real app the shared cache would hang off a `static` (one slot for the whole process). A
/// static is filled once and stays filled, so the lab gives every iteration a fresh app object
/// instead: each run starts with an empty slot and can race all over again.
public protocol OnceOnlyInitController: AnyObject {
    var sharedCache: OnceOnlyInitCache { get }
}

/// Who asked for the cache and what they got. Harness-side: each caller reports once, when it
/// has all its answers, so this lock orders nothing inside the look-then-build that TSan must be
/// free to see.
final class OnceOnlyInitCallers: @unchecked Sendable {
    private let lock = NSLock()
    private var got: [(caller: String, cache: OnceOnlyInitCache)] = []

    var answers: [(caller: String, cache: OnceOnlyInitCache)] { lock.withLock { got } }

    /// One part of the app starting up on its own thread and asking for the cache `times` times.
    func start(_ caller: String, asking app: OnceOnlyInitController, times: Int = 1) {
        Thread.detachNewThread {
            var answers: [(caller: String, cache: OnceOnlyInitCache)] = []
            for ask in 0..<times {
                if ask > 0 { Checkpoint.hit("cache.ask") }
                answers.append((caller, app.sharedCache))
            }
            self.lock.withLock { self.got += answers }
        }
    }
}

public enum OnceOnlyInitLab: LabScenario {
    public static let info = LabInfo(
        id: "once-only-init",
        title: "A shared instance created on first use",
        source: "seed 002 (threads chapter): dispatch_once for singletons; Swift's static let",
        bug: "the lazily created shared cache is guarded by a plain nil check, so two threads both see nil and both build one",
        invariants: [
            "exactly one cache is ever built",
            "every caller gets that same cache",
        ],
        expectedDetectors: [.tsan, .invariant],
        defaultIterations: [.scripted: 3, .stress: 120]
    )

    public static let variants: [LabVariant<OnceOnlyInitEnvironment, OnceOnlyInitController>] = [
        LabVariant(.broken) { OnceOnlyInitBroken(environment: $0) },
    ]

    static let parts = ["image loader", "thumbnailer", "prefetcher", "share sheet"]

    public static func play(_ variant: LabVariant<OnceOnlyInitEnvironment, OnceOnlyInitController>, in run: ScenarioRun) {
        let app = variant.make(OnceOnlyInitEnvironment(builder: OnceOnlyInitBuilder()))
        let callers = OnceOnlyInitCallers()
        var expectedAnswers = 0

        switch run.mode {
        case .scripted:
            // At launch the image loader asks first, finds no cache and starts building one.
            // While that build is under way, the thumbnailer asks too.
            let midBuild = run.pause(at: "cache.build", hit: 1)
            run.user("starts the \(parts[0])") { callers.start(parts[0], asking: app) }
            midBuild.whilePaused {
                run.user("starts the \(parts[1])") { callers.start(parts[1], asking: app) }
                // A correct app makes the thumbnailer wait for the first build: stop waiting after a while.
                run.waitUntil(timeout: 0.1) { !callers.answers.isEmpty }
            }
            expectedAnswers = 2
        case .stress:
            // Four parts of the app start at random moments and each asks twice.
            for part in parts {
                run.randomPause(upTo: 1)
                run.user("starts the \(part)") { callers.start(part, asking: app, times: 2) }
            }
            expectedAnswers = parts.count * 2
        }

        let answered = run.waitUntil(timeout: 6) { callers.answers.count == expectedAnswers }
        run.expect(answered, "only \(callers.answers.count) of \(expectedAnswers) requests for the cache returned within 6 s")
        run.settle(idle: run.mode == .stress ? 0.002 : nil)

        let cache = app.sharedCache  // the main thread asks last, once everyone else has an answer
        let builds = OnceOnlyInitBuilder.builds
        run.record("caches built", Double(builds))
        run.expect(builds == 1, "the shared cache was built \(builds) times; it must be built exactly once")
        let strays = callers.answers.filter { $0.cache !== cache }
        if let stray = strays.first {
            run.fail("the \(stray.caller) got cache #\(stray.cache.serial), but the app now holds cache #\(cache.serial)"
                     + (strays.count > 1 ? " (\(strays.count) answers were not the shared cache)" : ""))
        }
    }
}
