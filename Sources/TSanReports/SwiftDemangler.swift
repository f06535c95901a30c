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
    /// the stack. Real names in a lab stay far below this.
    public static let maximumLength = 1_000

    /// The demangled name, trimmed for a learner, or `symbol` unchanged when it is not a Swift
    /// symbol (or too long to demangle safely).
    public static func demangle(_ symbol: String) -> String {
        guard let full = runtimeName(symbol) else { return symbol }
        return simplify(full)
    }

    /// The runtime's whole demangling, module names and all ("Foundation.Process.init() -> ..."),
    /// or `symbol` unchanged.
    public static func demangleFully(_ symbol: String) -> String { runtimeName(symbol) ?? symbol }

    private static func runtimeName(_ symbol: String) -> String? {
        guard symbol.hasPrefix("$s") || symbol.hasPrefix("_$s") || symbol.hasPrefix("$S"), symbol.utf8.count <= maximumLength else { return nil }
        return symbol.withCString { pointer in
            guard let result = runtimeDemangle(pointer, UInt(strlen(pointer)), nil, nil, 0) else { return nil }
            defer { free(result) }
            return String(cString: result)
        }
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
        // A lab's module prefix where the type repeats it: "ListAdder.ListAdderBroken",
        // "ListAdderExercises.ListAdderExercise", "MandelbrotSolutions.MandelbrotFixedGCD".
        text = text.replacingOccurrences(of: #"\b([A-Z]\w*?)(?:Exercises|Solutions)?\.(\1\w*)"#, with: "$2", options: .regularExpression)
        // Module prefixes that are noise for a learner.
        for module in ["LabKit.", "Swift.", "Foundation."] {
            text = text.replacingOccurrences(of: module, with: "")
        }
        return text
    }
}
