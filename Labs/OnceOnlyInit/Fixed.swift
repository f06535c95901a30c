import Foundation
import LabKit
import OnceOnlyInit

/// Once-only creation. In a real app this is one line, `static let shared = Cache()`: Swift runs
/// the initialiser of a static or global `let` exactly once, on first use, and makes every other
/// thread wait for it (the runtime's swift_once, the job dispatch_once did in Objective-C).
///
/// A `static let` lives as long as the process, and the lab needs a fresh slot every iteration,
/// so this variant does the same job by hand with the source article's other tool: a serial queue used as
/// a lock around the whole look-then-build step.
final class OnceOnlyInitFixed: OnceOnlyInitController {
    private let builder: OnceOnlyInitBuilder
    private let once = DispatchQueue(label: "once-only-init.shared-cache")  // FIX: serial: one caller at a time
    private var shared: OnceOnlyInitCache?  // touched only inside `once`

    init(environment: OnceOnlyInitEnvironment) {
        builder = environment.builder
    }

    var sharedCache: OnceOnlyInitCache {
        // FIX: the look and the build are one block on the serial queue: whoever comes second
        // waits until the first has stored its cache, then finds the slot full.
        once.sync {
            if let shared { return shared }
            let cache = builder.build()
            shared = cache
            return cache
        }
    }
}

extension OnceOnlyInitLab {
    public static var solutions: [LabVariant<OnceOnlyInitEnvironment, OnceOnlyInitController>] {
        [LabVariant(.fixed) { OnceOnlyInitFixed(environment: $0) }]
    }
}
