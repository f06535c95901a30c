import Foundation
import LabKit

/// The classic lazy shared instance: look in the slot, build the cache if it is empty.
/// (In a real app: `private static var shared: Cache?` and a `static var` getter; see Scenario.swift.)
final class OnceOnlyInitBroken: OnceOnlyInitController {
    private let builder: OnceOnlyInitBuilder
    private var shared: OnceOnlyInitCache?

    init(environment: OnceOnlyInitEnvironment) {
        builder = environment.builder
    }

    var sharedCache: OnceOnlyInitCache {
        // BUG: check, then create, with nothing holding other threads back in between: two
        // threads can both find the slot empty and both build a cache (and race on the slot).
        if shared == nil {
            shared = builder.build()
        }
        return shared!
    }
}
