// VALID: double-checked locking done right: a lock-free fast path reads an Atomic flag with acquiring order, which the builder sets with releasing order after storing the cache.
import Foundation
import LabKit
import OnceOnlyInit
import Synchronization

final class OnceOnlyInitValidDoubleCheckedAtomic: OnceOnlyInitController {
    private let builder: OnceOnlyInitBuilder
    private let lock = NSLock()
    private let ready = Atomic<Bool>(false)
    private var shared: OnceOnlyInitCache?  // written once, under `lock`, before `ready` is set

    init(environment: OnceOnlyInitEnvironment) {
        builder = environment.builder
    }

    var sharedCache: OnceOnlyInitCache {
        // Fast path: the acquiring load sees `ready` only after the store of `shared` it follows.
        if ready.load(ordering: .acquiring) { return shared! }
        lock.lock()
        defer { lock.unlock() }
        if let shared { return shared }
        let cache = builder.build()
        shared = cache
        ready.store(true, ordering: .releasing)
        return cache
    }
}
