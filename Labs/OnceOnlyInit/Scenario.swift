import Foundation
@_spi(LabAuthoring) import LabKit
import Synchronization

/// The app's photo cache: big and slow to build, meant to exist once and be shared by everyone.
public final class OnceOnlyInitCache: Sendable {
    /// 1 for the first cache built in an iteration, 2 for a second one (which must never exist).
    public let serial: Int
    /// Which cache this is in the whole process: 1 for the first one ever built. Tells a cache
    /// built in this iteration from one that already existed (a `static let`, built once per process).
    let number: Int

    init(serial: Int, number: Int) {
        self.serial = serial
        self.number = number
    }
}

/// The slow part: building the cache (in a real app, reading its index from disk). Each build is
/// a checkpoint "cache.build", so the harness counts builds without any lock the lab could lean on.
/// Stateless, so any thread may use it, and any code may make one (a `static let` initialiser too).
public final class OnceOnlyInitBuilder: Sendable {
    /// Caches built in this process. Relaxed: it counts, and orders nothing for ThreadSanitizer.
    private static let everBuilt = Atomic<Int>(0)

    public init() {}

    public func build() -> OnceOnlyInitCache {
        let serial = Checkpoint.hit("cache.build")
        let number = Self.everBuilt.add(1, ordering: .relaxed).newValue
        return OnceOnlyInitCache(serial: serial, number: number)
    }

    /// Caches built since the iteration began.
    public static var builds: Int { Checkpoint.hits("cache.build") }

    /// Caches built since the process began.
    static var builtInProcess: Int { everBuilt.load(ordering: .relaxed) }
}

/// What each once-only-init variant gets from the harness.
public struct OnceOnlyInitEnvironment {
    public let builder: OnceOnlyInitBuilder
}

/// The app as every variant must offer it: one shared cache, created on first use, asked for
/// from any thread.
///
/// Each iteration is a fresh launch: the scenario makes a new app object, so a slot kept in it
/// starts empty and can race all over again. A `static let` (one slot for the whole process) is
/// built in the first iteration that asks and shared by every app object after it; that is fine:
/// the rules are that no cache is built while one exists, and that everyone gets the same one.
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
            for _ in 0..<times {
                Checkpoint.hit("cache.ask")
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
        source: "source article 002 (threads chapter): dispatch_once for singletons; Swift's static let",
        bug: "the lazily created shared cache is guarded by a plain nil check, so two threads both see nil and both build one",
        invariants: [
            "a cache is built only when none exists yet: at most one build, and only if the app had no cache before (a static let is built once per process)",
            "every caller gets that same cache, the one the app holds",
        ],
        expectedDetectors: [.tsan, .invariant],
        defaultIterations: [.scripted: 3, .stress: 120]
    )

    public static let variants: [LabVariant<OnceOnlyInitEnvironment, OnceOnlyInitController>] = [
        LabVariant(.broken) { OnceOnlyInitBroken(environment: $0) },
    ]

    static let parts = ["image loader", "thumbnailer", "prefetcher", "share sheet"]

    public static func play(_ variant: LabVariant<OnceOnlyInitEnvironment, OnceOnlyInitController>, in run: ScenarioRun) {
        let builtBefore = OnceOnlyInitBuilder.builtInProcess
        let app = variant.make(OnceOnlyInitEnvironment(builder: OnceOnlyInitBuilder()))
        let callers = OnceOnlyInitCallers()
        var expectedAnswers = 0

        switch run.mode {
        case .scripted:
            // At launch the image loader asks first, finds no cache and starts building one.
            // While that build is under way, the thumbnailer asks, then the prefetcher: two
            // callers arrive mid-build, and both must end up with the loader's cache.
            // (A cache that already exists, a static built in an earlier iteration, means no
            // build to hold: the story goes on once the app is quiet.)
            let midBuild = run.pause(at: "cache.build", hit: 1)
            run.user("starts the \(parts[0])") { callers.start(parts[0], asking: app) }
            midBuild.whilePaused {
                for part in parts[1...2] {
                    let answeredBefore = callers.answers.count
                    run.user("starts the \(part)") { callers.start(part, asking: app) }
                    // A correct app makes this caller wait for the first build: once it waits (the
                    // app is quiet but for the held build), the story goes on.
                    run.waitUntilDoneOrQuiet { callers.answers.count > answeredBefore }
                }
            }
            expectedAnswers = 3
        case .stress:
            // Four parts of the app start at random moments and each asks twice.
            for part in parts {
                run.randomPause(upTo: 1)
                run.user("starts the \(part)") { callers.start(part, asking: app, times: 2) }
            }
            expectedAnswers = parts.count * 2
        }

        let answered = run.waitUntilDoneOrQuiet { callers.answers.count == expectedAnswers }
        run.expect(answered, "only \(callers.answers.count) of \(expectedAnswers) requests for the cache returned; the others wait for something that never comes")
        run.settle()

        let cache = app.sharedCache  // the main thread asks last, once everyone else has an answer
        let builds = OnceOnlyInitBuilder.builds
        run.record("caches built", Double(builds))
        if cache.number > builtBefore {
            // The app built its cache in this launch: that must have been the only build.
            run.expect(builds == 1, "the shared cache was built \(builds) times; it must be built exactly once")
        } else {
            // The cache existed before this launch (one per process, like a static let): nothing
            // more may be built.
            run.expect(builds == 0, "the app already had its cache from before this launch, yet \(builds) more were built")
        }
        let strays = callers.answers.filter { $0.cache !== cache }
        if let stray = strays.first {
            run.fail("the \(stray.caller) got cache #\(stray.cache.serial), but the app now holds cache #\(cache.serial)"
                     + (strays.count > 1 ? " (\(strays.count) answers were not the shared cache)" : ""))
        }
    }
}
