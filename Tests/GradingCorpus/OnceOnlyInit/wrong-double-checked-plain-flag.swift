// WRONG: double-checked locking with a plain Bool: the fast path reads the flag and the slot outside the lock with no ordering, a data race with the builder's writes.
import Foundation
import LabKit
import OnceOnlyInit

final class OnceOnlyInitWrongDoubleCheckedPlainFlag: OnceOnlyInitController {
    private let builder: OnceOnlyInitBuilder
    private let lock = NSLock()
    private var ready = false
    private var shared: OnceOnlyInitCache?

    init(environment: OnceOnlyInitEnvironment) {
        builder = environment.builder
    }

    var sharedCache: OnceOnlyInitCache {
        if ready { return shared! }  // unlocked read: nothing orders it with the store below
        lock.lock()
        defer { lock.unlock() }
        if !ready {
            shared = builder.build()
            ready = true
        }
        return shared!
    }
}
