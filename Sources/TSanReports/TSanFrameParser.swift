/// Reads one stack frame line, `#2 function file:line:column (module+0xoffset) (BuildId: ...)`,
/// by hand, left to right, in one pass: a regular expression here cost seconds on a large log.
/// The function may hold spaces (a C++ name with its arguments); so may the file's path.
///
/// On Apple platforms TSan names frames with `atos`: `#0 closure #1 in Foo.bar() Exercise.swift:39
/// (racelab-child:arm64+0x1f0c)`: the module carries its architecture, the name is already
/// demangled (spaces and all), the file is a base name and there is no column. Such a frame is
/// read from the right: the module, then a last `file:line` word, and the rest is the function.
enum TSanFrameParser {
    static func frame(_ line: some StringProtocol) -> TSanReport.Frame? {
        guard var rest = afterFrameNumber(Substring(line)) else { return nil }
        let named = takeModule(from: &rest)
        guard !rest.isEmpty else { return nil }
        let (module, atos) = withoutArchitecture(named)
        let (function, location) = atos ? atosFunctionAndLocation(rest) : functionAndLocation(rest)
        let (file, lineNumber, column) = place(location)
        let readable = function == "<null>" ? "<unknown>" : SwiftDemangler.demangle(function)
        return TSanReport.Frame(
            function: function, demangled: readable, file: file, line: lineNumber, column: column, module: module,
            origin: FrameOrigin.classify(function: function, file: file, module: module))
    }

    /// What follows "#12 " at the start of `line`; nil when it does not start so.
    private static func afterFrameNumber(_ line: Substring) -> Substring? {
        guard line.first == "#" else { return nil }
        let rest = line.dropFirst()
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        let afterDigits = rest.dropFirst(digits.count)
        guard afterDigits.first == " " else { return nil }
        return afterDigits.dropFirst()
    }

    /// Cuts the trailing " (BuildId: ...)" and " (module+0xoffset)" (or " (<unknown module>)")
    /// off `rest`; returns the module's name, if one was given.
    private static func takeModule(from rest: inout Substring) -> String? {
        if rest.hasSuffix(")"), let buildID = lastIndex(of: " (BuildId: ", in: rest) {
            rest = rest[..<buildID]
        }
        guard rest.hasSuffix(")"), let open = lastIndex(of: " (", in: rest) else { return nil }
        let inside = rest[rest.index(open, offsetBy: 2)..<rest.index(before: rest.endIndex)]
        if let plus = lastIndex(of: "+0x", in: inside) {
            rest = rest[..<open]
            return String(inside[..<plus])
        }
        if inside == "<unknown module>" { rest = rest[..<open] }
        return nil
    }

    /// atos names a module with its architecture ("App:arm64"): the name without it, and
    /// whether it had one (then the frame is read the atos way).
    private static func withoutArchitecture(_ module: String?) -> (module: String?, atos: Bool) {
        if let named = module, let colon = named.lastIndex(of: ":"),
            ["x86_64", "x86_64h", "arm64", "arm64e", "i386"].contains(named[named.index(after: colon)...])
        {
            return (String(named[..<colon]), true)
        }
        return (module, false)
    }

    /// An atos frame, read from the right: a last word ending in ":digits" is the location, the
    /// rest is the function (spaces and all).
    private static func atosFunctionAndLocation(_ rest: Substring) -> (function: String, location: Substring) {
        let lastWord = rest.lastIndex(of: " ").map { rest[rest.index(after: $0)...] }
        if let lastWord, splitNumber(lastWord) != nil {
            return (String(rest[..<rest.index(before: lastWord.startIndex)]), lastWord)
        }
        return (String(rest), "")
    }

    /// A symbolizer's frame: the function's name, then (after spaces) the location.
    private static func functionAndLocation(_ rest: Substring) -> (function: String, location: Substring) {
        let functionEnd = endOfFunctionName(rest)
        return (String(rest[..<functionEnd]), rest[functionEnd...].drop { $0 == " " })
    }

    /// "path:line:column", "path:line" or a bare path; no file for an empty location or one
    /// TSan did not know ("<null>").
    private static func place(_ location: Substring) -> (file: String?, line: Int?, column: Int?) {
        guard !location.isEmpty, !location.hasPrefix("<") else { return (nil, nil, nil) }
        guard let (prefix, last) = splitNumber(location) else { return (String(location), nil, nil) }
        if let (path, line) = splitNumber(prefix) { return (String(path), line, last) }
        return (String(prefix), last, nil)
    }

    /// "a/b.c:12" as ("a/b.c", 12); nil when the text does not end in ":digits".
    private static func splitNumber(_ text: Substring) -> (Substring, Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let digits = text[text.index(after: colon)...]
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let value = Int(digits)
        else {
            return nil
        }
        return (text[..<colon], value)
    }

    /// Where the last `needle` (ASCII) starts in `text`, searching its bytes from the end.
    static func lastIndex(of needle: StaticString, in text: Substring) -> Substring.Index? {
        let bytes = text.utf8
        let count = needle.utf8CodeUnitCount
        guard bytes.count >= count else { return nil }
        return needle.withUTF8Buffer { pattern -> Substring.Index? in
            var start = bytes.index(bytes.endIndex, offsetBy: -count)
            while true {
                var matched = true
                var position = start
                for byte in pattern {
                    if bytes[position] != byte {
                        matched = false
                        break
                    }
                    position = bytes.index(after: position)
                }
                if matched { return start }
                if start == bytes.startIndex { return nil }
                start = bytes.index(before: start)
            }
        }
    }

    /// Where the function's name ends: the first space outside brackets, unless a C++ qualifier
    /// follows ("f() const"). `operator<` and friends do not count as brackets.
    private static func endOfFunctionName(_ text: Substring) -> Substring.Index {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "o", text[index...].hasPrefix("operator") {
                // Skip the operator's symbol characters: they are not brackets. A named one
                // ("operator new", "operator delete[]", "operator bool") keeps its word.
                index = text.index(index, offsetBy: 8)
                if index < text.endIndex, text[index] == " " {
                    let word = text[text.index(after: index)...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    if !word.isEmpty { index = text.index(index, offsetBy: word.count + 1) }
                }
                while index < text.endIndex, "<>=-+*/%&|^!~[]()".contains(text[index]) {
                    if text[index] == "(" && text[text.index(after: index)...].hasPrefix(")") == false { break }
                    index = text.index(after: index)
                }
                continue
            }
            switch character {
            case "(", "<", "[", "{": depth += 1
            case ")", ">", "]", "}": depth = max(0, depth - 1)
            case " " where depth == 0:
                let after = text[text.index(after: index)...]
                let qualifier = ["const", "volatile", "&&", "&", "[clone"].first { after.hasPrefix($0) }
                let qualifierEnds =
                    qualifier.map { after.dropFirst($0.count).first.map { " &)".contains($0) } ?? true } ?? false
                if !qualifierEnds {
                    return index
                }
            default: break
            }
            index = text.index(after: index)
        }
        return text.endIndex
    }
}
