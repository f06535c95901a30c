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
        var rest = Substring(line)
        guard rest.first == "#" else { return nil }
        rest = rest.dropFirst()
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        rest = rest.dropFirst(digits.count)
        guard rest.first == " " else { return nil }
        rest = rest.dropFirst()

        if rest.hasSuffix(")"), let buildID = lastIndex(of: " (BuildId: ", in: rest) {
            rest = rest[..<buildID]
        }
        var module: String?
        if rest.hasSuffix(")"), let open = lastIndex(of: " (", in: rest) {
            let inside = rest[rest.index(open, offsetBy: 2)..<rest.index(before: rest.endIndex)]
            if let plus = lastIndex(of: "+0x", in: inside) {
                module = String(inside[..<plus])
                rest = rest[..<open]
            } else if inside == "<unknown module>" {
                rest = rest[..<open]
            }
        }
        guard !rest.isEmpty else { return nil }
        // atos: "App:arm64" (an architecture after the module's name).
        var atos = false
        if let named = module, let colon = named.lastIndex(of: ":"),
            ["x86_64", "x86_64h", "arm64", "arm64e", "i386"].contains(named[named.index(after: colon)...])
        {
            module = String(named[..<colon])
            atos = true
        }
        let function: String
        let location: Substring
        if atos {
            let lastWord = rest.lastIndex(of: " ").map { rest[rest.index(after: $0)...] }
            if let lastWord, splitNumber(lastWord) != nil {
                function = String(rest[..<rest.index(before: lastWord.startIndex)])
                location = lastWord
            } else {
                function = String(rest)
                location = ""
            }
        } else {
            let functionEnd = endOfFunctionName(rest)
            function = String(rest[..<functionEnd])
            location = rest[functionEnd...].drop { $0 == " " }
        }

        var file: String?
        var lineNumber: Int?
        var column: Int?
        if !location.isEmpty, !location.hasPrefix("<") {
            var path = location
            if let (prefix, last) = splitNumber(path) {
                if let (before, previous) = splitNumber(prefix) {
                    path = before
                    lineNumber = previous
                    column = last
                } else {
                    path = prefix
                    lineNumber = last
                }
            }
            file = String(path)
        }
        let readable = function == "<null>" ? "<unknown>" : SwiftDemangler.demangle(function)
        return TSanReport.Frame(
            function: function, demangled: readable, file: file, line: lineNumber, column: column, module: module,
            origin: FrameOrigin.classify(function: function, file: file, module: module))
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
