import Foundation

/// How frames, threads and places read in an explanation.
extension TSanExplainer {
    /// The frame to point at: the first in the program's own code; else the first that is not
    /// TSan's runtime or RaceLab's interceptors; else the first with a name.
    static func mainFrame(_ frames: [TSanReport.Frame]) -> TSanReport.Frame? {
        frames.first(where: \.isUserCode)
            ?? frames.first { $0.function != "<null>" && ![.sanitizer, .raceLab].contains($0.origin ?? .noSource) }
            ?? frames.first { $0.function != "<null>" }
    }

    /// The program's own frames below `frame` (its callers, outermost last) that have a line,
    /// without repeats of one function in a row (a recursion, a closure and its thunk).
    static func userCallers(of frame: TSanReport.Frame, in frames: [TSanReport.Frame]) -> [TSanReport.Frame] {
        guard let index = frames.firstIndex(of: frame) else { return [] }
        var callers: [TSanReport.Frame] = []
        for caller in frames[(index + 1)...] where caller.isUserCode && (caller.line ?? 0) > 0 {
            if readableName(caller) == readableName(callers.last ?? frame) { continue }
            callers.append(caller)
        }
        return callers
    }

    /// The name of a frame's function, for reading: "worker1()" rather than
    /// "lockOrder.worker1() -> ()", "closure #1 in top-level code" rather than "closure #1 in lockOrder".
    static func readableName(_ frame: TSanReport.Frame) -> String {
        let key = frame.function + "\u{0}" + (frame.module ?? "")
        if let known = readableNames.value(for: key) { return known }
        let name = computeReadableName(frame)
        readableNames.store(name, for: key)
        return name
    }

    /// Names already made readable: regular expressions per frame add up over a long log.
    private static let readableNames = NameCache(capacity: 20_000)

    private static func computeReadableName(_ frame: TSanReport.Frame) -> String {
        var name = frame.demangled
        if let module = frame.module, name == module + "_main" {
            return "top-level code"  // what the C entry point `<module>_main` runs: main.swift
        }
        if name == "async_Main" { return "top-level code (async)" }
        name = withoutTypeAnnotation(name)
        name = name.replacingOccurrences(of: "__allocating_init(", with: "init(")
        if let module = frame.module, !module.contains(".") {
            let escaped = NSRegularExpression.escapedPattern(for: module)
            // A closure in main.swift demangles as "closure #1 in <module>".
            name = name.replacingOccurrences(
                of: "^((?:closure #\\d+ in )+)\(escaped)((?: \\(after an await\\))?)$", with: "$1top-level code$2",
                options: .regularExpression)
            name = name.replacingOccurrences(
                of: "(^| in |static )\(escaped)\\.", with: "$1", options: .regularExpression)
        }
        name = isSwift(frame) ? withShortArguments(name) : withShortCArguments(name)
        // A name no demangler could shorten (a hostile log's) is cut: it would fill screens.
        return name.count > maximumShownNameLength ? String(name.prefix(maximumShownNameLength)) + "…" : name
    }

    static let maximumShownNameLength = 300

    /// Positions of `text` outside brackets: where a type annotation or an argument may start.
    private static func topLevelOffsets(_ text: [Character]) -> [Int] {
        var depth = 0
        var offsets: [Int] = []
        for (offset, character) in text.enumerated() {
            switch character {
            case "(", "<", "[": depth += 1
            case ")", "]": depth -= 1
            case ">": if offset == 0 || text[offset - 1] != "-" { depth -= 1 }
            default: if depth == 0 { offsets.append(offset) }
            }
        }
        return offsets
    }

    /// "PageStats.views.modify : Dictionary<Int, Int>" becomes "PageStats.views.modify".
    static func withoutTypeAnnotation(_ name: String) -> String {
        let characters = Array(name)
        for offset in topLevelOffsets(characters)
        where offset + 2 < characters.count
            && characters[offset] == " " && characters[offset + 1] == ":" && characters[offset + 2] == " "
        {
            return String(characters[..<offset])
        }
        return name
    }

    /// A long argument list keeps only its labels: "play(_: LabVariant<...>, in: ScenarioRun)"
    /// becomes "play(_:in:)"; a short one ("add(Int)") stays as it is. A suffix such as
    /// " (after an await)" stays after it.
    static func withShortArguments(_ name: String) -> String {
        let awaitNote = " (after an await)"
        if name.hasSuffix(awaitNote) {
            return withShortArguments(String(name.dropLast(awaitNote.count))) + awaitNote
        }
        guard name.hasSuffix(")"), let open = matchingOpenParenthesis(Array(name)) else { return name }
        let arguments = String(Array(name)[(open + 1)..<(name.count - 1)])
        guard arguments.count > 30 else { return name }
        var labels: [String] = []
        var depth = 0
        var current = ""
        for character in arguments + "," {
            if character == ",", depth == 0 {
                let argument = current.trimmingCharacters(in: .whitespaces)
                let label = argument.firstMatch(of: #/^(\w+): /#).map { String($0.1) } ?? "_"
                labels.append(label + ":")
                current = ""
                continue
            }
            if "(<[".contains(character) { depth += 1 }
            if ")]".contains(character) || (character == ">" && current.last != "-") { depth -= 1 }
            current.append(character)
        }
        return String(Array(name)[...open]) + labels.joined() + ")"
    }

    /// A C++ name keeps a short argument list; a long one becomes "(...)":
    /// "Cache::lookup(std::basic_string<...> const&, int) const" becomes "Cache::lookup(...) const".
    static func withShortCArguments(_ name: String) -> String {
        let characters = Array(name)
        guard let close = characters.lastIndex(of: ")"),
            let open = matchingOpenParenthesis(Array(characters[...close])),
            close - open - 1 > 30
        else { return name }
        return String(characters[...open]) + "..." + String(characters[close...])
    }

    private static func matchingOpenParenthesis(_ characters: [Character]) -> Int? {
        var depth = 0
        for offset in characters.indices.reversed() {
            if characters[offset] == ")" { depth += 1 }
            if characters[offset] == "(" {
                depth -= 1
                if depth == 0 { return offset }
            }
        }
        return nil
    }

    /// The variable behind a Swift accessor frame: "PageStats.views" from
    /// "studentCache.PageStats.views.modify : Dictionary<Int, Int>", with its type.
    static func accessedVariable(_ report: TSanReport) -> (name: String, type: String?)? {
        for frame in report.accesses.compactMap(\.frames.first) {
            let full = frame.demangled
            let bare = withoutTypeAnnotation(full)
            guard
                let accessor = [".modify", ".setter", ".getter", ".read", ".unsafeMutableAddressor"].first(where: {
                    bare.hasSuffix($0)
                }),
                bare.count > accessor.count
            else { continue }
            var name = String(bare.dropLast(accessor.count))
            if let module = frame.module, name.hasPrefix(module + ".") {
                name = String(name.dropFirst(module.count + 1))
            }
            let type =
                full.count > withoutTypeAnnotation(full).count
                ? String(full.dropFirst(withoutTypeAnnotation(full).count + 3)) : nil
            return (name, type)
        }
        return nil
    }

    /// "in closure #1 in ListAdderBroken.recalculate(), Broken.swift:37".
    static func place(_ frame: TSanReport.Frame, _ preposition: String = "in") -> String {
        var text = preposition + " " + readableName(frame)
        if frame.isUserCode, let location = frame.shortLocation {
            text += ", " + location
            if (frame.line ?? 0) <= 0 { text += " (TSan gave no line)" }
        } else if let module = frame.module {
            // A library's "file" (crtstuff.c, Queue.swift.o) says nothing useful: name the library.
            text += " (in \(module), no source line)"
        }
        return text
    }

    /// One line of a call chain: "#1 Counter.reset(), main.swift:17", or for code that is not
    /// the program's own, "#0 pthread_mutex_unlock (ThreadSanitizer runtime)".
    static func chainEntry(_ frame: TSanReport.Frame, number: Int) -> String {
        let origin =
            frame.origin ?? FrameOrigin.classify(function: frame.function, file: frame.file, module: frame.module)
        if origin == .userCode {
            return "#\(number) \(readableName(frame))" + (frame.shortLocation.map { ", \($0)" } ?? "")
        }
        return "#\(number) \(readableName(frame)) (\(origin.rawValue))"
    }

    /// "the main thread", "thread T2".
    static func who(_ thread: String?) -> String {
        guard let thread else { return "a thread TSan did not name" }
        return thread == "main thread" ? "the main thread" : thread
    }

    static func capitalised(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    /// "write M0" becomes "M0".
    static func lockNames(_ access: TSanReport.Access) -> [String] {
        (access.heldMutexes ?? []).compactMap { $0.split(separator: " ").last.map(String.init) }
    }

    /// Swift code: a Swift symbol, or a .swift file.
    static func isSwift(_ frame: TSanReport.Frame?) -> Bool {
        guard let frame else { return false }
        return frame.function.hasPrefix("$s") || frame.file?.hasSuffix(".swift") == true
    }

    /// TSan's own name for the action, in plain words.
    static func action(_ access: TSanReport.Access) -> String {
        let lower = access.description.lowercased()
        let modifying = "modified it (an append, a +=, any change in place)"
        // An object a library describes to TSan: "Modifying access of Cache at 0x...".
        if let start = access.description.range(of: "ccess of "), let end = access.description.range(of: " at 0x"),
            start.upperBound < end.lowerBound
        {
            let object = access.description[start.upperBound..<end.lowerBound]
            if object != "Swift variable" { return (access.isWrite ? "changed the " : "used the ") + object }
        }
        if lower.hasPrefix("modifying") || lower.hasPrefix("previous modifying") { return modifying }
        // Swift marks the start of an in-place change (+=, append, a mutating call: an inout
        // access) with a 1-byte write at the variable: it is not the variable's size.
        if access.isWrite, access.size == 1, isSwift(access.frames.first) { return modifying }
        let amount = access.size.map { $0 == 1 ? "1 byte" : "\($0) bytes" }
        let atomic = lower.contains("atomic") ? "atomically " : ""
        if access.isWrite { return atomic + "wrote " + (amount ?? "it") }
        return atomic + "read " + (amount ?? "it")
    }

    /// Functions that give memory back: an access in one of them is the freeing.
    static let freeingFunctions: Set<String> = [
        "free", "cfree", "_ZdlPv", "_ZdaPv", "swift_slowDealloc", "munmap",
        "operator delete(void*)", "operator delete[](void*)"
    ]

    static func isFreeing(_ access: TSanReport.Access) -> Bool {
        access.frames.prefix(2).contains {
            freeingFunctions.contains($0.function) || $0.function.hasPrefix("operator delete")
        }
    }

    /// "SIGALRM" for 14: Linux's numbers for the signals a handler is usually set for.
    static func signalName(_ number: Int) -> String {
        let names = [
            1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 6: "SIGABRT", 10: "SIGUSR1", 12: "SIGUSR2", 13: "SIGPIPE",
            14: "SIGALRM", 15: "SIGTERM", 17: "SIGCHLD", 26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH"
        ]
        return names[number].map { "\($0) (signal \(number))" } ?? "signal \(number)"
    }
}
