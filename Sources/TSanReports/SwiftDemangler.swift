import Foundation

/// Turns mangled Swift symbols (`$s4Labs15ListAdderBrokenC3addyySiF`) into readable names with
/// the Swift runtime's own demangler, then trims what a learner does not need.
public enum SwiftDemangler {
    @_silgen_name("swift_demangle")
    private static func runtimeDemangle(
        _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: UInt,
        _ outputBuffer: UnsafeMutablePointer<CChar>?, _ outputBufferSize: UnsafeMutablePointer<UInt>?,
        _ flags: UInt32
    ) -> UnsafeMutablePointer<CChar>?

    /// Longer names are left mangled: the runtime's demangler recurses once per nesting level
    /// with no bound of its own, and a crafted name (a child can print anything) could overflow
    /// the stack. Each level takes at least one character, so this length bounds the depth; and
    /// a name is demangled only when the thread's stack has room for that depth (`StackSpace`).
    /// Real names in a lab stay far below it.
    public static let maximumLength = 1_000
    /// A short name can stand for a very long one (substitutions repeat whole types): longer
    /// readable names are cut, so no later step (wrapping, trimming) works on megabytes.
    public static let maximumReadableLength = 600

    /// The demangled name, trimmed for a learner, or `symbol` unchanged when it is not a Swift
    /// symbol (or too long to demangle safely).
    public static func demangle(_ symbol: String) -> String {
        guard isSwiftSymbol(symbol) else { return symbol }
        if let known = cache.value(for: symbol) { return known }
        let readable = runtimeName(symbol).map(simplify) ?? symbol
        cache.store(readable, for: symbol)
        return readable
    }

    /// The runtime's whole demangling, module names and all ("Foundation.Process.init() -> ..."),
    /// or `symbol` unchanged.
    public static func demangleFully(_ symbol: String) -> String { runtimeName(symbol) ?? symbol }

    static func isSwiftSymbol(_ symbol: String) -> Bool {
        (symbol.hasPrefix("$s") || symbol.hasPrefix("_$s") || symbol.hasPrefix("$S"))
            && symbol.utf8.count <= maximumLength
    }

    private static func runtimeName(_ symbol: String) -> String? {
        guard isSwiftSymbol(symbol), StackSpace.suffices(forNameOfLength: symbol.utf8.count) else { return nil }
        return symbol.withCString { pointer in
            guard let result = runtimeDemangle(pointer, UInt(strlen(pointer)), nil, nil, 0) else { return nil }
            defer { free(result) }
            let name = String(cString: result)
            return name.count > maximumReadableLength ? String(name.prefix(maximumReadableLength)) + "…" : name
        }
    }

    /// "closure #1 @Sendable () -> () in Labs.ListAdderBroken.recalculate() -> ()"
    /// becomes "closure #1 in ListAdderBroken.recalculate()".
    static func simplify(_ name: String) -> String {
        var text = name
        // Compiler-made wrappers around the function the programmer wrote: name that function.
        // An async function is split at each await into "partial functions"; say so plainly.
        var suffix = ""
        if let resume = text.firstMatch(of: #/^\(\d+\) (?:suspend|await) resume partial function for /#) {
            text = String(text[resume.range.upperBound...])
            suffix = " (after an await)"
        }
        for wrapper in [
            "partial apply forwarder for ", "partial apply for ", "async function pointer to ", "merged ",
            "specialized "
        ]
        where text.hasPrefix(wrapper) {
            text = String(text.dropFirst(wrapper.count))
        }
        if let generic = text.firstMatch(of: #/^generic specialization <.*?> of /#) {
            text = String(text[generic.range.upperBound...])
        }
        // Closure signatures between "closure #N" and " in ".
        text = text.replacingOccurrences(of: #"(closure #\d+) [^#]*? in "#, with: "$1 in ", options: .regularExpression)
        // Private names: "(recalculate in _38F923B6D0E65AA8B7C45A62C26ABC01)" becomes "recalculate".
        text = text.replacingOccurrences(of: #"\(([^()\s]+) in _[0-9A-F]+\)"#, with: "$1", options: .regularExpression)
        // Effects before the result type: "f() async throws -> ()" becomes "f() -> ()".
        text = text.replacingOccurrences(
            of: #"\) (?:async )?(?:throws(?:\([^()]*\))? )?-> "#, with: ") -> ", options: .regularExpression)
        // Trailing result types: "() -> ()" becomes "()".
        text = text.replacingOccurrences(of: #"\) -> [^()]+$"#, with: ")", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\) -> \(\)"#, with: ")", options: .regularExpression)
        // A lab's module prefix where the type repeats it: "ListAdder.ListAdderBroken",
        // "ListAdderExercises.ListAdderExercise", "MandelbrotSolutions.MandelbrotFixedGCD".
        text = text.replacingOccurrences(
            of: #"\b([A-Z]\w*?)(?:Exercises|Solutions)?\.(\1\w*)"#, with: "$2", options: .regularExpression)
        // Module prefixes that are noise for a learner.
        for module in ["LabKit.", "Swift.", "Foundation."] {
            text = text.replacingOccurrences(of: module, with: "")
        }
        return text + suffix
    }

    /// Readable names already worked out: a log repeats the same few hundred symbols in
    /// thousands of frames, and demangling plus trimming costs tens of microseconds a name.
    private static let cache = NameCache(capacity: 20_000)
}

/// How much stack the current thread has left: the runtime's demangler needs about 1.7 KB
/// per nesting level (measured: a name nested 400 deep crashed a thread with 512 KB of stack,
/// 300 deep did not), and a level takes at least one character of the name.
enum StackSpace {
    /// Stack to keep per character of a name, with a wide margin over the measured need.
    static let bytesPerCharacter = 2_048
    static let reserve = 64 * 1024

    static func suffices(forNameOfLength length: Int) -> Bool {
        guard let remaining = remaining() else { return length <= 200 }
        return remaining >= reserve + length * bytesPerCharacter
    }

    /// The bytes between here and the end of this thread's stack, nil where it cannot be known.
    static func remaining() -> Int? {
        // The main thread's bounds once: for it glibc reads all of /proc/self/maps, which in a
        // TSan process is long (measured: 0.5 s of `racelab check`, demangling an object file).
        guard let lowest = Thread.isMainThread ? mainThreadLowestAddress : lowestAddress() else { return nil }
        var here = 0
        return withUnsafeMutablePointer(to: &here) { Int(bitPattern: UnsafeMutableRawPointer($0)) - lowest }
    }

    private static let mainThreadLowestAddress = lowestAddress()

    /// The lowest address of the calling thread's stack.
    private static func lowestAddress() -> Int? {
        #if os(Linux)
            var attributes = pthread_attr_t()
            guard threadAttributes(pthread_self(), &attributes) == 0 else { return nil }
            defer { pthread_attr_destroy(&attributes) }
            var lowest: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(&attributes, &lowest, &size) == 0, let lowest else { return nil }
            return Int(bitPattern: lowest)
        #elseif canImport(Darwin)
            // Darwin gives the stack's top (it grows down) and its size. (Not yet compiled on a Mac.)
            let thread = pthread_self()
            return Int(bitPattern: pthread_get_stackaddr_np(thread)) - pthread_get_stacksize_np(thread)
        #else
            return nil
        #endif
    }

    #if os(Linux)
        /// glibc's pthread_getattr_np, which Swift's Glibc module does not show (it is a GNU extension).
        @_silgen_name("pthread_getattr_np")
        private static func threadAttributes(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>)
            -> Int32
    #endif
}

/// A bounded map from symbol to readable name, safe to share between threads (the harness
/// parses children's logs in parallel). When full it starts over: a log never needs more
/// than a few thousand names at once.
final class NameCache: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String: String] = [:]
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func value(for symbol: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return names[symbol]
    }

    func store(_ name: String, for symbol: String) {
        lock.lock()
        defer { lock.unlock() }
        if names.count >= capacity { names.removeAll(keepingCapacity: true) }
        names[symbol] = name
    }
}
