import Foundation

/// The environment a child runs in: TSan options chosen for teaching, and a symbolizer that
/// can read Swift (the toolchain's own, not an older one that happens to be first on PATH).
public enum TSanEnvironment {
    /// Options for one child that runs one lab variant, on `platform` (this system's unless
    /// asked).
    /// - history_size=7: with the default 0 TSan silently drops races whose earlier stack is gone.
    /// - ignore_noninstrumented_modules=0 (Linux): otherwise lock-order inversions and misused
    ///   locks are never reported. Not on Apple platforms: there Foundation, CoreFoundation and
    ///   Dispatch synchronise with atomics TSan cannot see, and with 0 TSan reports races inside
    ///   them in honest code (compiler-rt's own test, `Darwin/ignore-noninstrumented.mm`, shows
    ///   those false reports), so a right fix would fail. Apple's default (1) stays, and
    ///   `PlatformChecks` says what a Mac then does not see.
    /// - handle_*=1: TSan prints the crashing thread's stack for a deadly signal, which is how a
    ///   crash names its cause (a libdispatch trap, a use after free) and the student's line.
    ///   TSan can spin in that handler instead of dying; the watchdog kills a child that printed
    ///   a crash and did not end within `ChildRequest.crashGrace`.
    /// - atexit_sleep_ms=100: the default waits 1 s at exit for late races; the scenario
    ///   already waits for the lab to settle, so 1 s per child is mostly lost time.
    /// - suppressions: `suppressions`, below, written into the run's private folder (`RunFolder`).
    /// - hard_rss_limit_mb: TSan ends the child once its resident memory passes what one run may
    ///   use (`ChildLimits.memoryPerChild`, the kernel's limit where control groups can be set):
    ///   the same fence where they cannot, checked by TSan's own thread a few times a second.
    public static func options(
        symbolizer: String?, suppressionsFile: String?, platform: TSanPlatform = .here
    ) -> String {
        var options = ["exitcode=\(exitCode)", "halt_on_error=0", "history_size=7", "second_deadlock_stack=1"]
        if platform == .linux { options.append("ignore_noninstrumented_modules=0") }
        options += [
            "report_signal_unsafe=0", "color=never", "atexit_sleep_ms=100",
            "handle_segv=1", "handle_sigbus=1", "handle_sigill=1", "handle_sigfpe=1", "handle_abort=1",
            "handle_sigtrap=1"
        ]
        if let symbolizer { options.append("external_symbolizer_path=\(symbolizer)") }
        if let suppressionsFile { options.append("suppressions=\(suppressionsFile)") }
        options.append("hard_rss_limit_mb=\(ChildLimits.memoryPerChild >> 20)")
        return options.joined(separator: ":")
    }

    /// TSan suppressions for reports about the Swift runtime itself, never about a program.
    /// With ignore_noninstrumented_modules=0 TSan watches the runtime's own locks, and when two
    /// threads first use the same generic type at once, the runtime's metadata cache takes its
    /// two internal locks in both orders on one thread (AtomicWaitQueue). TSan calls that a
    /// lock-order inversion; it was seen in about 1 of 100 clean once-only-init runs, with no
    /// lab frame under the locks; in a Swift Testing program, whose tests first use many generic
    /// types on pool threads at once, it is the same cache's entry and map locks
    /// (VariadicMetadataCacheEntryBase; ConcurrentReadableHashMap, which also backs the runtime's
    /// conformance and type-name caches). A cycle one of whose locks is taken inside these frames
    /// is never the program's own: the runtime calls no program code there. A report is dropped only when one of its stacks runs through
    /// these runtime functions, which a lab's own locks never do (TSan then prints
    /// "Matched N suppressions" at exit, so it is never silent).
    public static let suppressions = """
        # racelab: TSan suppressions (see TSanEnvironment.swift)
        deadlock:swift::AtomicWaitQueue
        deadlock:swift::MetadataCacheEntryBase
        deadlock:swift::VariadicMetadataCacheEntryBase
        deadlock:swift::ConcurrentReadableHashMap

        """

    /// What TSan prints when `hard_rss_limit_mb` ends a child.
    public static let memoryLimitLine = "ThreadSanitizer: hard rss limit exhausted"

    /// The exit status TSan gives a process in which it reported anything (`exitcode=`).
    public static let exitCode: Int32 = 66

    /// The whole environment of a child: nothing of the parent's but PATH and the locale, so
    /// neither a stray TSAN_OPTIONS nor an LD_PRELOAD in the caller's shell changes a verdict.
    /// HOME and TMPDIR point into the run's private folder.
    public static func childEnvironment(folder: RunFolder, base: [String: String] = ProcessInfo.processInfo.environment)
        -> [String: String]
    {
        var environment: [String: String] = [:]
        for name in ["PATH", "LANG", "LC_ALL"] { environment[name] = base[name] }
        environment["HOME"] = folder.url.path
        environment["TMPDIR"] = folder.url.path
        environment["TSAN_OPTIONS"] = options(
            symbolizer: symbolizerPath(environment: base), suppressionsFile: folder.suppressionsPath)
        // Swift's backtracer is slow to symbolicate and its output is not what we parse.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment["RACELAB_LAB_CPUS"] = String(labCPUs)
        return environment
    }

    /// The CPUs a lab's Dispatch sees, on every machine (LabCPUs.c): how many threads
    /// concurrentPerform uses and how wide the pool is before it grows. The stories were written
    /// and measured on 2; the lab's threads still run on every CPU the machine gives them.
    public static let labCPUs = 2

    /// The toolchain's llvm-symbolizer: next to the `swift` found on PATH (symlinks resolved),
    /// else /opt/swift, else any on PATH.
    public static func symbolizerPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let fileManager = FileManager.default
        if let explicit = environment["TSAN_SYMBOLIZER_PATH"], fileManager.isExecutableFile(atPath: explicit) {
            return explicit
        }
        let path = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        var candidates: [String] = []
        for directory in path {
            let swift = URL(fileURLWithPath: directory).appendingPathComponent("swift")
            if fileManager.isExecutableFile(atPath: swift.path) {
                candidates.append(
                    swift.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(
                        "llvm-symbolizer"
                    ).path)
            }
        }
        candidates.append("/opt/swift/usr/bin/llvm-symbolizer")
        candidates += path.map { URL(fileURLWithPath: $0).appendingPathComponent("llvm-symbolizer").path }
        return candidates.first { fileManager.isExecutableFile(atPath: $0) }
    }
}
