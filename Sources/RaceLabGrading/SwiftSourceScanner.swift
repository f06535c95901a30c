import Foundation

/// Swift source with its comments and the text of its string literals blanked out (newlines
/// kept, so line numbers still hold), while the code inside string interpolations stays: what
/// the exercise checks read, so that a comment or a message mentioning `exit` is not code that
/// calls it, and code hidden in `"\(...)"` is still seen.
///
/// Handles `//` and nested `/* */` comments, "..." and """...""" strings with escapes and
/// interpolation, raw strings (#"..."#, interpolation \#(...)), and #/.../# regex literals.
public enum SwiftSourceScanner {
    public static func codeOnly(_ source: String) -> String {
        var scanner = Scanner(Array(source.utf8))
        scanner.run()
        return String(decoding: scanner.output, as: UTF8.self)
    }

    private struct Scanner {
        let input: [UInt8]
        var output: [UInt8]
        var index = 0

        /// What the scanner is inside, innermost last. Code pushed by an interpolation remembers
        /// how many parentheses are open, so the `)` that ends the interpolation is found.
        enum Context {
            case code(openParens: Int)
            case string(multiline: Bool, hashes: Int)
        }
        var stack: [Context] = [.code(openParens: 0)]

        init(_ input: [UInt8]) {
            self.input = input
            self.output = input
        }

        func at(_ offset: Int) -> UInt8? { index + offset < input.count ? input[index + offset] : nil }
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let bytes = Array(text.utf8)
            guard index + offset + bytes.count <= input.count else { return false }
            return input[(index + offset)..<(index + offset + bytes.count)].elementsEqual(bytes)
        }
        mutating func blank(_ count: Int) {
            for position in index..<min(index + count, input.count) where input[position] != UInt8(ascii: "\n") {
                output[position] = UInt8(ascii: " ")
            }
            index += count
        }

        mutating func run() {
            while index < input.count {
                switch stack[stack.count - 1] {
                case .code(let open): code(openParens: open)
                case .string(let multiline, let hashes): string(multiline: multiline, hashes: hashes)
                }
            }
        }

        mutating func code(openParens: Int) {
            let byte = input[index]
            if starts("//") {
                while index < input.count && input[index] != UInt8(ascii: "\n") { blank(1) }
            } else if starts("/*") {
                var depth = 0
                repeat {
                    if starts("/*") {
                        depth += 1
                        blank(2)
                    } else if starts("*/") {
                        depth -= 1
                        blank(2)
                    } else {
                        blank(1)
                    }
                } while depth > 0 && index < input.count
            } else if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "\"") {
                var hashes = 0
                while at(hashes) == UInt8(ascii: "#") { hashes += 1 }
                if at(hashes) == UInt8(ascii: "\"") {
                    let multiline = starts("\"\"\"", at: hashes)
                    index += hashes + (multiline ? 3 : 1)  // the delimiter stays visible
                    stack.append(.string(multiline: multiline, hashes: hashes))
                } else if hashes > 0 && at(hashes) == UInt8(ascii: "/") {
                    regex(hashes: hashes)
                } else {
                    index += max(hashes, 1)
                }
            } else if byte == UInt8(ascii: "(") {
                stack[stack.count - 1] = .code(openParens: openParens + 1)
                index += 1
            } else if byte == UInt8(ascii: ")") {
                if openParens == 0 && stack.count > 1 {
                    stack.removeLast()  // the end of an interpolation: back in the string
                } else {
                    stack[stack.count - 1] = .code(openParens: max(openParens - 1, 0))
                }
                index += 1
            } else {
                index += 1
            }
        }

        mutating func string(multiline: Bool, hashes: Int) {
            let close = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
            let escape = "\\" + String(repeating: "#", count: hashes)
            if starts(close) {
                index += close.utf8.count
                stack.removeLast()
            } else if starts(escape) {
                if at(escape.utf8.count) == UInt8(ascii: "(") {
                    blank(escape.utf8.count)
                    index += 1
                    stack.append(.code(openParens: 0))
                } else {
                    blank(escape.utf8.count + 1)
                }
            } else if !multiline && input[index] == UInt8(ascii: "\n") {
                stack.removeLast()  // an unterminated string ends at the line (the compiler rejects it anyway)
            } else {
                blank(1)
            }
        }

        mutating func regex(hashes: Int) {
            let close = "/" + String(repeating: "#", count: hashes)
            index += hashes + 1
            while index < input.count && !starts(close) { blank(1) }
            index = min(index + close.utf8.count, input.count)
        }
    }
}
