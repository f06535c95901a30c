// VALID: Swift 6's Mutex guards the slot; the look and the build are one withLock block, so a second caller waits and then finds the cache.
import Foundation
import LabKit
import OnceOnlyInit
import Synchronization

final class OnceOnlyInitValidMutex: OnceOnlyInitController {
    private let builder: OnceOnlyInitBuilder
    private let slot = Mutex<OnceOnlyInitCache?>(nil)

    init(environment: OnceOnlyInitEnvironment) {
        builder = environment.builder
    }

    var sharedCache: OnceOnlyInitCache {
        slot.withLock { slot in
            if let cache = slot { return cache }
            let cache = builder.build()
            slot = cache
            return cache
        }
    }
}
