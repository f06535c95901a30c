/// Breaks plain text into lines no wider than a terminal, at spaces, keeping an indent.
/// A word longer than a whole line is split, so no line is ever too wide, unless
/// `breakLongWords` is false (text shown as printed, where a path cut in two misleads).
enum TextWrapper {
    /// `text` as lines of at most `width` characters. The first line starts with `indent`,
    /// the following ones with `continuation` (a hanging indent for list items).
    static func wrap(_ text: String, width: Int, indent: String = "", continuation: String? = nil,
                     breakLongWords: Bool = true) -> [String] {
        let continuation = continuation ?? indent
        var lines: [String] = []
        var current = indent
        var currentIsEmpty = true
        func newLine() {
            lines.append(current)
            current = continuation
            currentIsEmpty = true
        }
        for word in words(text) {
            var word = word
            let separator = currentIsEmpty ? "" : " "
            if current.count + separator.count + word.count <= width {
                current += separator + word
                currentIsEmpty = false
                continue
            }
            if !currentIsEmpty { newLine() }
            // Still too long on a line of its own: cut it into pieces that fit.
            while breakLongWords, current.count + word.count > width {
                let room = max(1, width - current.count)
                current += word.prefix(room)
                word = String(word.dropFirst(room))
                currentIsEmpty = false
                newLine()
            }
            if !word.isEmpty {
                current += word
                currentIsEmpty = false
            }
        }
        if !currentIsEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// The words of `text`. A dash stays with the word before it (no line starts with one), and
    /// a `code span` stays whole (a command split over two lines reads as two commands).
    private static func words(_ text: String) -> [String] {
        var words: [String] = []
        var inCode = false
        for word in text.split(separator: " ").map(String.init) {
            let glued = inCode || ((word == "—" || word == "-") && !words.isEmpty)
            if glued, let last = words.popLast() {
                words.append(last + " " + word)
            } else {
                words.append(word)
            }
            if word.filter({ $0 == "`" }).count % 2 == 1 { inCode.toggle() }
        }
        return words
    }

    /// One line cut to `width`, with "..." showing that something was left out.
    static func cut(_ line: String, width: Int) -> String {
        line.count <= width ? line : String(line.prefix(max(0, width - 3))) + "..."
    }
}
