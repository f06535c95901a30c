// WRONG: builds outside the lock and keeps whichever cache is stored first: every caller ends up with the same cache, but two callers who ask together both build one (the slow build the lab must do once).
import Foundation
import LabKit
import OnceOnlyInit
import Synchronization

final class OnceOnlyInitWrongBuildThenPublish: OnceOnlyInitController {
    private let builder: OnceOnlyInitBuilder
    private let slot = Mutex<OnceOnlyInitCache?>(nil)

    init(environment: OnceOnlyInitEnvironment) {
        builder = environment.builder
    }

    var sharedCache: OnceOnlyInitCache {
        if let cache = slot.withLock({ $0 }) { return cache }
        let built = builder.build()  // not under the lock: it is slow
        return slot.withLock { slot in
            if let first = slot { return first }  // someone was quicker: use theirs, drop ours
            slot = built
            return built
        }
    }
}
