// WRONG: callers that find the cache being built wait on a semaphore, but the builder signals it once: with two or more waiters, all but one wait forever.
import Foundation
import LabKit
import OnceOnlyInit

final class OnceOnlyInitWrongSemaphoreWakesOne: OnceOnlyInitController {
    private let builder: OnceOnlyInitBuilder
    private let lock = NSLock()
    private let built = DispatchSemaphore(value: 0)
    private var building = false
    private var shared: OnceOnlyInitCache?

    init(environment: OnceOnlyInitEnvironment) {
        builder = environment.builder
    }

    var sharedCache: OnceOnlyInitCache {
        lock.lock()
        if let shared {
            lock.unlock()
            return shared
        }
        if building {
            lock.unlock()
            built.wait()  // the builder signals when it is done
            return lock.withLock { shared! }
        }
        building = true
        lock.unlock()
        let cache = builder.build()
        lock.withLock { shared = cache }
        built.signal()  // wakes one waiter
        return cache
    }
}
