import Foundation

/// The environment a child runs in: TSan options chosen for teaching, and a symbolizer that
/// can read Swift (the toolchain's own, not an older one that happens to be first on PATH).
public enum TSanEnvironment {
    /// Options for one child that runs one lab variant.
    /// - history_size=7: with the default 0 TSan silently drops races whose earlier stack is gone.
    /// - ignore_noninstrumented_modules=0: otherwise lock-order inversions are never reported.
    /// - handle_*=0: a crash dies at once instead of spinning in TSan's deadly-signal handler.
    /// - atexit_sleep_ms=100: the default waits 1 s at exit for late races; the scenario
    ///   already waits for the lab to settle, so 1 s per child is mostly lost time.
    public static func options(symbolizer: String?) -> String {
        var options = [
            "exitcode=66", "halt_on_error=0", "history_size=7", "second_deadlock_stack=1",
            "ignore_noninstrumented_modules=0", "report_signal_unsafe=0", "color=never", "atexit_sleep_ms=100",
            "handle_segv=0", "handle_sigbus=0", "handle_sigill=0", "handle_sigfpe=0", "handle_abort=0",
        ]
        if let symbolizer { options.append("external_symbolizer_path=\(symbolizer)") }
        return options.joined(separator: ":")
    }

    public static func childEnvironment(base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment = base
        environment["TSAN_OPTIONS"] = options(symbolizer: symbolizerPath(environment: base))
        // Swift's backtracer is slow to symbolicate and its output is not what we parse.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment
    }

    /// The toolchain's llvm-symbolizer: next to the `swift` found on PATH (symlinks resolved),
    /// else /opt/swift, else any on PATH.
    public static func symbolizerPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let fileManager = FileManager.default
        if let explicit = environment["TSAN_SYMBOLIZER_PATH"], fileManager.isExecutableFile(atPath: explicit) { return explicit }
        let path = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        var candidates: [String] = []
        for directory in path {
            let swift = URL(fileURLWithPath: directory).appendingPathComponent("swift")
            if fileManager.isExecutableFile(atPath: swift.path) {
                candidates.append(swift.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("llvm-symbolizer").path)
            }
        }
        candidates.append("/opt/swift/usr/bin/llvm-symbolizer")
        candidates += path.map { URL(fileURLWithPath: $0).appendingPathComponent("llvm-symbolizer").path }
        return candidates.first { fileManager.isExecutableFile(atPath: $0) }
    }
}
