// VALID: the idiomatic one line, a `static let`: Swift builds it once per process, on first use, and makes every other thread wait (swift_once).
import Foundation
import LabKit
import OnceOnlyInit

final class OnceOnlyInitValidStaticLet: OnceOnlyInitController {
    /// Built the first time anyone asks, exactly once, and shared by every app object after that.
    private static let cache = OnceOnlyInitBuilder().build()

    init(environment: OnceOnlyInitEnvironment) {}

    var sharedCache: OnceOnlyInitCache { Self.cache }
}
