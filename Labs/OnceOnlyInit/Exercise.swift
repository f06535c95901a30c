import Foundation
import LabKit
import OnceOnlyInit

/// EXERCISE: this starts as a copy of the broken variant. Make sure only one cache is ever built,
/// however many threads ask at once, and that everyone gets that one. Keep the class name and
/// `sharedCache`. Check it with `make check LAB=once-only-init`.
///
/// The classic lazy shared instance: look in the slot, build the cache if it is empty.
/// (In a real app: `private static var shared: Cache?` and a `static var` getter; see Scenario.swift.)
final class OnceOnlyInitExercise: OnceOnlyInitController {
    private let builder: OnceOnlyInitBuilder
    private var shared: OnceOnlyInitCache?

    init(environment: OnceOnlyInitEnvironment) {
        builder = environment.builder
    }

    var sharedCache: OnceOnlyInitCache {
        // TODO: fix this: check, then create, with nothing holding other threads back in between: two
        // threads can both find the slot empty and both build a cache (and race on the slot).
        if shared == nil {
            shared = builder.build()
        }
        return shared!
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeOnceOnlyInitExercise(_ environment: OnceOnlyInitEnvironment) -> OnceOnlyInitController {
    OnceOnlyInitExercise(environment: environment)
}
