/// Whose code a stack frame is in. An explanation points at the first frame of the program's
/// own code: the frames above it are TSan's interceptors (`pthread_mutex_lock`, `write`,
/// `free`, `__tsan_memcpy`...), the C library, Dispatch, Foundation or the Swift runtime, whose
/// lines a learner cannot change.
public enum FrameOrigin: String, Codable, Sendable {
    case userCode = "user code"
    case sanitizer = "ThreadSanitizer runtime"
    /// RaceLab's own C layer, which sits in front of TSan's interceptors in a lab child
    /// (`pthread_mutex_lock`, `dispatch_async` passed on to TSan's): never the learner's line.
    case raceLab = "RaceLab's interceptors"
    case cLibrary = "C library"
    case cxxLibrary = "C++ library"
    case dispatch = "Dispatch"
    case foundation = "Foundation"
    case swiftRuntime = "Swift runtime"
    case compilerGenerated = "compiler-generated"
    /// No source file: nothing to show (a stripped library, or a symbol TSan could not name).
    case noSource = "no source"

    public static func classify(function: String, file: String?, module: String?) -> FrameOrigin {
        if function.hasPrefix("__tsan") || function.hasPrefix("__interceptor_")
            || function.hasPrefix("_____interceptor_")
            || function.hasPrefix("__sanitizer") || function.hasPrefix("__tsan::")
        {
            return .sanitizer
        }
        if let file {
            // TSan's runtime is linked into the program itself, so its module is the program's:
            // only its source gives it away, by what it is (a file of the runtime's own tree),
            // never by a folder name a user's code may share.
            if isRuntimeSource(file) { return .sanitizer }
            if isRaceLabLayer(file) { return .raceLab }
            if file.hasPrefix("/<") { return .compilerGenerated }
        }
        if let module, let library = systemLibrary(module) { return library }
        guard let file, !file.isEmpty else { return .noSource }
        // glibc's build paths ("csu/../sysdeps/nptl/libc_start_call_main.h"), relative.
        if file.hasPrefix("csu/") || file.hasPrefix("nptl/") || file.contains("sysdeps/") || file == "crtstuff.c" {
            return .cLibrary
        }
        return .userCode
    }

    /// A source file of the sanitizer runtime: in one of its library folders (`lib/tsan/`,
    /// `lib/sanitizer_common/`, `lib/interception/`, seen as `.../compiler-rt/lib/tsan/rtl/`),
    /// named as the runtime names its files (`tsan_*`, `sanitizer_*`, `interception*`). A user's
    /// `compiler-rt/test/race.c` is neither.
    static func isRuntimeSource(_ file: String) -> Bool {
        let components = file.split(separator: "/")
        guard let name = components.last, components.count >= 3 else { return false }
        let folders = components.dropLast()
        let inRuntimeTree =
            zip(folders, folders.dropFirst()).contains { parent, child in
                parent == "lib" && (child == "tsan" || child == "sanitizer_common" || child == "interception")
            } || folders.last == "sanitizer_common"  // "lib/tsan/rtl/../../sanitizer_common/x.inc"
        return inRuntimeTree
            && (name.hasPrefix("tsan_") || name.hasPrefix("sanitizer_") || name.hasPrefix("interception"))
    }

    /// A C or assembly file of RaceLab's own layer (`Sources/CRaceLabSupport/`, in RaceLab's
    /// checkout or a package that depends on it).
    static func isRaceLabLayer(_ file: String) -> Bool {
        let components = file.split(separator: "/")
        guard components.count >= 2, components[components.count - 2] == "CRaceLabSupport" else { return false }
        return file.hasSuffix(".c") || file.hasSuffix(".S") || file.hasSuffix(".h")
    }

    /// Apple's framework binaries, named without "lib" in a frame (atos: "(in CoreFoundation)").
    static let appleFoundationFrameworks: Set<String> = [
        "Foundation", "CoreFoundation", "FoundationEssentials", "FoundationInternationalization"
    ]

    /// The origin of a shared library by its name ("libdispatch.so", "libswiftCore.so",
    /// "libsystem_pthread.dylib", "CoreFoundation"), nil for the program itself or a library
    /// that is not part of the system.
    static func systemLibrary(_ module: String) -> FrameOrigin? {
        if appleFoundationFrameworks.contains(module) { return .foundation }
        guard module.hasPrefix("lib") || module.hasPrefix("ld-"), module.contains(".so") || module.hasSuffix(".dylib")
        else {
            return nil
        }
        let name = module.prefix { $0 != "." }
        switch name {
        case "libc", "libm", "libpthread", "librt", "libdl", "libgcc_s", "libutil", "libresolv", "libBlocksRuntime":
            return .cLibrary
        // Apple's C library is split into libsystem_*.dylib (pthread, kernel, malloc...).
        case _ where name.hasPrefix("libsystem_") || name == "libdyld": return .cLibrary
        // The Objective-C runtime, under Apple's Foundation.
        case "libobjc": return .foundation
        case _ where name.hasPrefix("ld-linux") || name.hasPrefix("ld-"): return .cLibrary
        case "libstdc++", "libc++", "libc++abi", "libunwind": return .cxxLibrary
        case "libdispatch", "libswiftDispatch": return .dispatch
        case _
        where name.hasPrefix("libFoundation") || name.hasPrefix("libCoreFoundation") || name.hasPrefix("lib_Foundation")
            || name.hasPrefix("libicu") || name.hasPrefix("libxml2") || name.hasPrefix("libcurl"):
            return .foundation
        case _ where name.hasPrefix("libswift"): return .swiftRuntime
        case _ where name.hasPrefix("libclang_rt"): return .sanitizer
        default: return nil
        }
    }
}
