/// Which ThreadSanitizer runtime a child meets: its defaults differ, and so do the options the
/// harness can set without false reports (`TSanEnvironment.options`).
public enum TSanPlatform: Sendable, Equatable {
    case linux
    /// macOS (and any Apple platform): the runtime is a dylib, Apple's frameworks are not
    /// instrumented.
    case darwin

    /// This system's.
    public static var here: TSanPlatform {
        #if canImport(Darwin)
            .darwin
        #else
            .linux
        #endif
    }
}
