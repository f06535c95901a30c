import LabKit
import OnceOnlyInit
import Synchronization

/// The same fix in Swift 6 terms: the slot lives inside a `Mutex`, and the look and the build are
/// one `withLock` block. A caller that comes while the cache is being built waits at the lock,
/// then finds the slot full. The class is `Sendable`, and Swift 6 checks that claim: its stored
/// properties are the stateless builder and the `Mutex`, so there is no `var` left to race on.
final class OnceOnlyInitFixedSwift6: OnceOnlyInitController, Sendable {
    private let builder: OnceOnlyInitBuilder
    private let shared = Mutex<OnceOnlyInitCache?>(nil)  // FIX: the slot is reachable only through withLock.

    init(environment: OnceOnlyInitEnvironment) {
        builder = environment.builder
    }

    var sharedCache: OnceOnlyInitCache {
        // FIX: look, build and store in one locked step: nobody can find the slot empty while
        // another caller is still filling it.
        shared.withLock { slot in
            if let cache = slot { return cache }
            let cache = builder.build()
            slot = cache
            return cache
        }
    }
}

extension OnceOnlyInitLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<OnceOnlyInitEnvironment, OnceOnlyInitController>] {
        [LabVariant(.fixed, name: "fixed-mutex") { OnceOnlyInitFixedSwift6(environment: $0) }]
    }
}
