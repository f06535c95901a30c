extension TSanExplainer {
    /// Collects wrapped lines for one explanation.
    struct Writer {
        let width: Int
        let sourceLine: SourceLookup
        /// Show every frame of each stack (`racelab explain --stacks`), not only the program's own.
        var showStacks = false
        var lines: [String] = []
        /// Whether a line of the program's source was quoted (it may be newer than the log).
        var shownSource = false

        init(width: Int, sourceLine: @escaping SourceLookup, showStacks: Bool = false) {
            self.width = width
            self.sourceLine = sourceLine
            self.showStacks = showStacks
        }

        var text: String { lines.joined(separator: "\n") }

        mutating func blank() {
            if let last = lines.last, !last.isEmpty { lines.append("") }
        }

        mutating func say(_ text: String, indent: Int = 0, hanging: Int? = nil) {
            guard width != Self.unwrapped else {
                lines.append(spaces(indent) + text)
                return
            }
            lines += TextWrapper.wrap(
                text, width: width, indent: spaces(indent), continuation: spaces(hanging ?? indent))
        }

        /// A width that means "do not wrap": for comparing what two explanations say, where
        /// wrapping would only cost time.
        static let unwrapped = Int.max

        mutating func bullet(_ text: String) {
            say("- " + text, indent: 2, hanging: 4)
        }

        /// The source line of `frame`, when it has one and the file can be read.
        mutating func source(of frame: TSanReport.Frame, indent: Int) {
            guard frame.isUserCode, let file = frame.file, let line = frame.line, line > 0,
                let code = sourceLine(file, line)?.trimmingCharacters(in: .whitespaces), !code.isEmpty
            else { return }
            lines.append(
                width == Self.unwrapped
                    ? spaces(indent) + "\(line) | " + code
                    : TextWrapper.cut(spaces(indent) + "\(line) | " + code, width: width))
            shownSource = true
        }

        /// Where something happened: the program's own frame with its source line, then its
        /// callers in the program's code up to the thread's entry, one line each ("called from
        /// Thread1, race.c:12"; at most `maxCallers`, the rest counted), so a race inside a
        /// small helper still shows whose code reached it. The first caller gets its source line
        /// too when TSan gave the frame none (or `withCaller`: the frame alone does not say which
        /// path it was). With `showStacks`, the whole call chain follows instead of the callers.
        mutating func whereAbouts(_ frames: [TSanReport.Frame], indent: Int, withCaller: Bool = false) {
            guard let frame = TSanExplainer.mainFrame(frames) else {
                say("(no stack: TSan could not record where this happened)", indent: indent)
                return
            }
            say(TSanExplainer.place(frame), indent: indent, hanging: indent + 3)
            source(of: frame, indent: indent + 4)
            let callers = TSanExplainer.userCallers(of: frame, in: frames)
            if !showStacks {
                for (number, caller) in callers.prefix(Self.maxCallers).enumerated() {
                    say(TSanExplainer.place(caller, "called from"), indent: indent, hanging: indent + 3)
                    if number == 0 && ((frame.line ?? 0) <= 0 || withCaller) { source(of: caller, indent: indent + 4) }
                }
                if callers.count > Self.maxCallers {
                    say(
                        "(and \(callers.count - Self.maxCallers) more caller(s) in the program: --stacks shows them)",
                        indent: indent)
                }
            }
            callChain(frames, indent: indent)
        }

        static let maxCallers = 3

        /// Every frame, innermost first, marking whose code each is (only with `showStacks`).
        mutating func callChain(
            _ frames: [TSanReport.Frame], indent: Int, title: String = "call chain, innermost first:"
        ) {
            guard showStacks, !frames.isEmpty else { return }
            say(title, indent: indent)
            for (number, frame) in frames.enumerated() {
                say(TSanExplainer.chainEntry(frame, number: number), indent: indent + 2, hanging: indent + 6)
            }
        }

        /// Raw report text, kept whole. Long lines wrap at spaces only: a path or a symbol is
        /// never cut in two (it may then run past the width).
        mutating func verbatim(_ text: String) {
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if width == Self.unwrapped {
                    lines.append(String(line))
                    continue
                }
                let indentCount = line.prefix(while: { $0 == " " }).count
                lines += TextWrapper.wrap(
                    String(line.dropFirst(indentCount)), width: width, indent: spaces(indentCount),
                    continuation: spaces(indentCount + 4), breakLongWords: false)
            }
        }

        func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }

        mutating func heading(_ text: String) {
            say(text)
            lines.append(
                width == Self.unwrapped ? "=" : String(repeating: "=", count: min(width, lines.last?.count ?? 0)))
        }

        mutating func cures(_ items: [String]) {
            blank()
            say("Usual cures:")
            for item in items { bullet(item) }
        }
    }
}
