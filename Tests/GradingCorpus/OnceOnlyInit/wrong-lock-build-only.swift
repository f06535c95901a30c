// WRONG: the lock covers the build and the store but not the nil check: a second caller that looks while the first is building still finds the slot empty, and builds a second cache after it.
import Foundation
import LabKit
import OnceOnlyInit

final class OnceOnlyInitWrongLockBuildOnly: OnceOnlyInitController {
    private let builder: OnceOnlyInitBuilder
    private let lock = NSLock()
    private var shared: OnceOnlyInitCache?

    init(environment: OnceOnlyInitEnvironment) {
        builder = environment.builder
    }

    var sharedCache: OnceOnlyInitCache {
        if shared == nil {
            lock.withLock { shared = builder.build() }
        }
        return lock.withLock { shared! }
    }
}
