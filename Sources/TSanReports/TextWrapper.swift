/// Breaks plain text into lines no wider than a terminal, at spaces, keeping an indent.
/// A word longer than a whole line is split, so no line is ever too wide, unless
/// `breakLongWords` is false (text shown as printed, where a path cut in two misleads).
package enum TextWrapper {
    /// `text` as lines of at most `width` characters. The first line starts with `indent`,
    /// the following ones with `continuation` (a hanging indent for list items).
    package static func wrap(
        _ text: String, width: Int, indent: String = "", continuation: String? = nil,
        breakLongWords: Bool = true
    ) -> [String] {
        let continuation = continuation ?? indent
        let indentCount = indent.count
        let continuationCount = continuation.count
        var lines: [String] = []
        var current = indent
        var currentCount = indentCount  // characters in `current`, kept rather than recounted
        var currentIsEmpty = true
        func newLine() {
            lines.append(current)
            current = continuation
            currentCount = continuationCount
            currentIsEmpty = true
        }
        for (text, count) in words(text) {
            var word = text
            var wordCount = count
            let separator = currentIsEmpty ? 0 : 1
            if currentCount + separator + wordCount <= width {
                current += (currentIsEmpty ? "" : " ") + word
                currentCount += separator + wordCount
                currentIsEmpty = false
                continue
            }
            if !currentIsEmpty { newLine() }
            // Still too long on a line of its own: cut it into pieces that fit.
            while breakLongWords, currentCount + wordCount > width {
                let room = max(1, width - currentCount)
                current += word.prefix(room)
                word = String(word.dropFirst(room))
                wordCount -= room
                currentIsEmpty = false
                newLine()
            }
            if wordCount > 0 {
                current += word
                currentCount += wordCount
                currentIsEmpty = false
            }
        }
        if !currentIsEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// The words of `text`, each with its length. A dash stays with the word before it (no line
    /// starts with one), and a `code span` stays whole (a command split over two lines reads as
    /// two commands).
    private static func words(_ text: String) -> [(String, Int)] {
        var words: [(String, Int)] = []
        var inCode = false
        for part in text.split(separator: " ") {
            let word = String(part)
            let count = word.count
            let glued = inCode || ((word == "—" || word == "-") && !words.isEmpty)
            if glued, let last = words.popLast() {
                words.append((last.0 + " " + word, last.1 + 1 + count))
            } else {
                words.append((word, count))
            }
            if word.contains("`"), word.utf8.lazy.filter({ $0 == UInt8(ascii: "`") }).count % 2 == 1 { inCode.toggle() }
        }
        return words
    }

    /// One line cut to `width`, with "..." showing that something was left out.
    static func cut(_ line: String, width: Int) -> String {
        line.count <= width ? line : String(line.prefix(max(0, width - 3))) + "..."
    }
}
