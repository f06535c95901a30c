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

    /// The demangled name, or `symbol` unchanged when it is not a Swift symbol.
    public static func demangle(_ symbol: String) -> String {
        guard symbol.hasPrefix("$s") || symbol.hasPrefix("_$s") || symbol.hasPrefix("$S") else { return symbol }
        let full: String? = symbol.withCString { pointer in
            guard let result = runtimeDemangle(pointer, UInt(strlen(pointer)), nil, nil, 0) else { return nil }
            defer { free(result) }
            return String(cString: result)
        }
        guard let full else { return symbol }
        return simplify(full)
    }

    /// "closure #1 @Sendable () -> () in Labs.ListAdderBroken.recalculate() -> ()"
    /// becomes "closure #1 in ListAdderBroken.recalculate()".
    static func simplify(_ name: String) -> String {
        var text = name
        // Closure signatures between "closure #N" and " in ".
        text = text.replacingOccurrences(of: #"(closure #\d+) [^#]*? in "#, with: "$1 in ", options: .regularExpression)
        // Private names: "(recalculate in _38F923B6D0E65AA8B7C45A62C26ABC01)" becomes "recalculate".
        text = text.replacingOccurrences(of: #"\(([^()\s]+) in _[0-9A-F]+\)"#, with: "$1", options: .regularExpression)
        // Trailing result types: "() -> ()" becomes "()".
        text = text.replacingOccurrences(of: #"\) -> [^()]+$"#, with: ")", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\) -> \(\)"#, with: ")", options: .regularExpression)
        // A lab's module prefix where the type repeats it: "ListAdder.ListAdderBroken".
        text = text.replacingOccurrences(of: #"\b([A-Z]\w*)\.(\1\w*)"#, with: "$2", options: .regularExpression)
        // Module prefixes that are noise for a learner.
        for module in ["RaceLabKit.", "Swift.", "Foundation."] {
            text = text.replacingOccurrences(of: module, with: "")
        }
        return text
    }
}
