// Every function in Sources longer than a limit (issue 48: "the longest Sources function <= 60
// lines"). A Swift script, so it needs nothing but the toolchain:
//
//   swift scripts/long-functions.swift [LIMIT] [--top N] [DIR...]
//
// LIMIT defaults to 60; DIR to Sources. Prints each function over LIMIT as "LINES path:line name",
// longest first (with --top N, the N longest whatever their length), and exits 1 when any is over.
// A function is Swift's func, init, deinit, subscript or computed property, or a C function; its
// lines run from the line of its declaration to that of its closing brace. Strings and comments
// are blanked first, so braces inside them (a YAML "${{ }}", a comment's "{") do not count.
import Foundation

var limit = 60
var top: Int?
var folders: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--top", let count = arguments.popFirst().flatMap({ Int($0) }) {
        top = count
    } else if let number = Int(argument) {
        limit = number
    } else {
        folders.append(argument)
    }
}
if folders.isEmpty { folders = ["Sources"] }

/// `text` with the insides of strings, character literals and comments turned into spaces (line
/// breaks kept, so lines still count), and preprocessor lines blanked: only code is left.
func codeOnly(_ text: String, isC: Bool) -> [Character] {
    let chars = Array(text)
    var out = chars
    var index = 0
    /// Code inside a string's interpolation ends at the parenthesis that closes `\(`.
    var interpolationDepths: [Int] = []
    var parenDepth = 0
    func blank(_ range: Range<Int>) {
        for i in range where out[i] != "\n" { out[i] = " " }
    }
    func starts(_ string: String, at position: Int) -> Bool {
        let pattern = Array(string)
        return position + pattern.count <= chars.count && Array(chars[position..<position + pattern.count]) == pattern
    }
    /// Skips a string opened at `index` (raw hashes, triple quotes or not); returns where it ends,
    /// or where an interpolation begins (the caller lexes that as code, then resumes the string).
    var openStrings: [(hashes: Int, multiline: Bool)] = []
    func scanString(from start: Int, hashes: Int, multiline: Bool) -> Int {
        var i = start
        let closing = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
        let escape = "\\" + String(repeating: "#", count: hashes)
        while i < chars.count {
            if starts(escape, at: i) {
                let after = i + escape.count
                if !isC && after < chars.count && chars[after] == "(" {
                    blank(start..<i)
                    openStrings.append((hashes, multiline))
                    interpolationDepths.append(parenDepth)
                    parenDepth += 1
                    return after + 1
                }
                i = after + 1
                continue
            }
            if starts(closing, at: i) {
                blank(start..<i)
                return i + closing.count
            }
            if !multiline && chars[i] == "\n" { break }
            i += 1
        }
        blank(start..<min(i, chars.count))
        return i
    }
    var lineStart = true
    while index < chars.count {
        let c = chars[index]
        if lineStart && c == "#" {
            // A preprocessor line (C's #include, Swift's #if): no braces of functions in it.
            var end = index
            while end < chars.count && chars[end] != "\n" {
                if chars[end] == "\\" && end + 1 < chars.count && chars[end + 1] == "\n" { end += 1 }
                end += 1
            }
            if isC || !starts("#\"", at: index) {
                blank(index..<end)
                index = end
                continue
            }
        }
        if c == "\n" {
            lineStart = true
            index += 1
            continue
        }
        if c != " " && c != "\t" { lineStart = false }
        if starts("//", at: index) {
            var end = index
            while end < chars.count && chars[end] != "\n" { end += 1 }
            blank(index..<end)
            index = end
        } else if starts("/*", at: index) {
            var depth = 0
            var end = index
            while end < chars.count {
                if starts("/*", at: end) {
                    depth += isC ? (depth == 0 ? 1 : 0) : 1
                    end += 2
                } else if starts("*/", at: end) {
                    depth -= 1
                    end += 2
                    if depth == 0 { break }
                } else {
                    end += 1
                }
            }
            blank(index..<end)
            index = end
        } else if isC && c == "'" {
            var end = index + 1
            while end < chars.count && chars[end] != "'" && chars[end] != "\n" {
                end += chars[end] == "\\" ? 2 : 1
            }
            blank(index + 1..<min(end, chars.count))
            index = end + 1
        } else if c == "\"" || (!isC && c == "#" && (starts("#\"", at: index) || starts("##\"", at: index))) {
            var hashes = 0
            while chars[index + hashes] == "#" { hashes += 1 }
            let multiline = !isC && starts("\"\"\"", at: index + hashes)
            let open = index + hashes + (multiline ? 3 : 1)
            index = scanString(from: open, hashes: hashes, multiline: multiline)
        } else if c == "(" {
            parenDepth += 1
            index += 1
        } else if c == ")" {
            parenDepth -= 1
            index += 1
            if let depth = interpolationDepths.last, depth == parenDepth {
                interpolationDepths.removeLast()
                let string = openStrings.removeLast()
                index = scanString(from: index, hashes: string.hashes, multiline: string.multiline)
            }
        } else {
            index += 1
        }
    }
    return out
}

struct LongFunction {
    var lines: Int
    var place: String
    var name: String
}

/// The functions of one file, each with its length in lines.
func functions(in path: String) -> [LongFunction] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    let isC = !path.hasSuffix(".swift")
    let code = codeOnly(text, isC: isC)
    var lineOf = [Int](repeating: 0, count: code.count + 1)
    var line = 1
    for (i, c) in code.enumerated() {
        lineOf[i] = line
        if c == "\n" { line += 1 }
    }
    lineOf[code.count] = line
    /// Where the brace opened at `open` closes.
    func closing(_ open: Int) -> Int? {
        var depth = 0
        for i in open..<code.count {
            if code[i] == "{" { depth += 1 }
            if code[i] == "}" {
                depth -= 1
                if depth == 0 { return i }
            }
        }
        return nil
    }
    var found: [LongFunction] = []
    func add(from start: Int, open: Int, name: String) {
        guard let end = closing(open) else { return }
        found.append(LongFunction(lines: lineOf[end] - lineOf[start] + 1, place: "\(path):\(lineOf[start])", name: name))
    }
    func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
    if isC {
        // A C function: a brace at file level whose header (since the last ';' or '}') has a '('
        // and is no struct, enum, union or initialiser.
        var depth = 0
        var headerStart = 0
        for i in code.indices {
            switch code[i] {
            case "{":
                if depth == 0 {
                    let header = String(code[headerStart..<i]).trimmingCharacters(in: .whitespacesAndNewlines)
                    let isDefinition =
                        header.contains("(") && !header.contains("=")
                        && !["struct", "enum", "union", "typedef", "extern \""].contains { header.hasPrefix($0) }
                    if isDefinition {
                        var start = headerStart
                        while start < i && code[start].isWhitespace { start += 1 }
                        let name = header.split(separator: "(").first?.split(separator: " ").last.map { String($0) } ?? "?"
                        add(from: start, open: i, name: name.trimmingCharacters(in: CharacterSet(charactersIn: "*")))
                    }
                }
                depth += 1
            case "}":
                depth -= 1
                if depth == 0 { headerStart = i + 1 }
            case ";":
                if depth == 0 { headerStart = i + 1 }
            default: break
            }
        }
        return found
    }
    // Swift: from each declaration keyword, the first brace at its own parenthesis level, unless a
    // ';', a '}', a '=' (a stored property's value) or the next declaration comes first.
    let keywords = ["func", "init", "deinit", "subscript", "var"]
    let stops = Set(["func", "init", "deinit", "subscript", "var", "let", "case", "struct", "class", "enum", "extension", "protocol", "actor", "typealias"])
    var i = 0
    while i < code.count {
        guard isWordCharacter(code[i]), i == 0 || !(isWordCharacter(code[i - 1]) || code[i - 1] == "." || code[i - 1] == "@")
        else {
            i += 1
            continue
        }
        var end = i
        while end < code.count && isWordCharacter(code[end]) { end += 1 }
        let word = String(code[i..<end])
        guard keywords.contains(word), end < code.count, !isWordCharacter(code[end]) else {
            i = end
            continue
        }
        var j = end
        var parens = 0
        var name = word
        let lineEnd = code[end...].firstIndex(of: "\n") ?? code.count
        let declaration = String(code[end..<lineEnd]).trimmingCharacters(in: .whitespaces)
        if let first = declaration.first, "+-*/%<>=!&|^~.?".contains(first) {
            name += " " + declaration.prefix { "+-*/%<>=!&|^~.?".contains($0) }  // an operator
        } else if word != "init" && word != "deinit" {
            name += " " + (declaration.split(whereSeparator: { !isWordCharacter($0) }).first.map(String.init) ?? "")
        } else {
            name += declaration.hasPrefix("(") || declaration.hasPrefix("?") ? "" : " " + declaration
        }
        while j < code.count && (code[j] == " " || "+-*/%<>=!&|^~.?".contains(code[j])) { j += 1 }  // an operator's name
        scan: while j < code.count {
            let c = code[j]
            if c == "(" || c == "[" || c == "<" { parens += 1 }
            if c == ")" || c == "]" || (c == ">" && code[j - 1] != "-") { parens -= 1 }
            if parens < 0 { break scan }  // `case .x(var y)`: a pattern, not a declaration
            if parens == 0 {
                if c == "{" {
                    add(from: i, open: j, name: name)
                    break scan
                }
                if c == ";" || c == "}" || (c == "=" && word == "var") { break scan }
                if isWordCharacter(c) && !isWordCharacter(code[j - 1]) {
                    var wordEnd = j
                    while wordEnd < code.count && isWordCharacter(code[wordEnd]) { wordEnd += 1 }
                    if stops.contains(String(code[j..<wordEnd])) && code[j - 1] != "." { break scan }
                    j = wordEnd
                    continue
                }
            }
            j += 1
        }
        i = end
    }
    return found
}

var all: [LongFunction] = []
for folder in folders {
    let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
    for file in files.sorted() where [".swift", ".c", ".h"].contains(where: file.hasSuffix) {
        all += functions(in: folder + "/" + file)
    }
}
all.sort { ($0.lines, $1.place) > ($1.lines, $0.place) }
let over = all.filter { $0.lines > limit }
let shown = top.map { Array(all.prefix($0)) } ?? over
for function in shown {
    print(String(function.lines).padding(toLength: 5, withPad: " ", startingAt: 0) + function.place + "  " + function.name)
}
print("\(over.count) of \(all.count) functions are over \(limit) lines; the longest has \(all.first?.lines ?? 0).")
exit(over.isEmpty ? 0 : 1)
