import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// The hints `racelab hint` shows, one at a time, gentlest first, taken from the lab's lesson
/// (its README.md) and facts, so every lab has hints without code of its own:
///
/// - a `## Hints` section, when the lesson has one: each list item (or paragraph) is a hint;
/// - otherwise: what the harness checks (the lab's invariants and detectors), then every
///   "Hint: ..." in the lesson, then the steps of "## How the fix works" (the last hints give
///   the fix away).
public enum LessonHints {
    public static func hints(for lab: Lab) -> [String] {
        let markdown = (try? String(contentsOf: lab.info.lessonFile, encoding: .utf8)) ?? ""
        return hints(lesson: markdown, info: lab.info)
    }

    public static func hints(lesson markdown: String, info: LabInfo) -> [String] {
        let sections = self.sections(markdown)
        if let own = sections.first(where: { $0.title.lowercased().hasPrefix("hints") }) {
            let items = blocks(own.body).flatMap(listItemsOrParagraph)
            if !items.isEmpty { return items }
        }
        var hints: [String] = []
        let checks = info.invariants.map { "- \($0)" }.joined(separator: "\n")
        hints.append(
            "What the harness checks, in every run of your exercise:\n\(checks)\n"
                + "The broken code is caught by: \(info.expectedDetectors.map(\.rawValue).joined(separator: ", ")). The bug: \(info.bug)."
        )
        for block in blocks(markdown) {
            guard let range = block.range(of: "Hint:") else { continue }
            let text = String(block[range.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
            hints += listItemsOrParagraph(text.prefix(1).uppercased() + text.dropFirst())
        }
        if let fix = sections.first(where: { $0.title.lowercased().hasPrefix("how the fix works") }) {
            hints += blocks(fix.body).flatMap(listItemsOrParagraph)
        }
        return hints
    }

    // MARK: Markdown, just enough

    struct Section {
        var title: String
        var body: String
    }

    /// `## ` sections (title, body up to the next `## `).
    static func sections(_ markdown: String) -> [Section] {
        var out: [Section] = []
        var current: Section?
        var inCode = false
        for line in markdown.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inCode.toggle() }
            if !inCode, line.hasPrefix("## ") {
                if let current { out.append(current) }
                current = Section(title: String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), body: "")
            } else if current != nil {
                current!.body += line + "\n"
            }
        }
        if let current { out.append(current) }
        return out
    }

    /// Blank-line separated blocks, code fences and tables left out.
    static func blocks(_ text: String) -> [String] {
        var out: [String] = []
        var block: [String] = []
        var inCode = false
        func flush() {
            let joined = block.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            if !joined.isEmpty && !joined.hasPrefix("|") && !joined.hasPrefix("#") { out.append(joined) }
            block = []
        }
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                inCode.toggle()
                flush()
                continue
            }
            if inCode { continue }
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                flush()
            } else if line.hasPrefix("#") {
                flush()  // a heading ends a block and is not one
            } else {
                block.append(line)
            }
        }
        flush()
        return out
    }

    /// A list block becomes its items (continuation lines joined); any other block stays whole.
    static func listItemsOrParagraph(_ block: String) -> [String] {
        let lines = block.components(separatedBy: "\n")
        func isItem(_ line: String) -> Bool {
            line.hasPrefix("- ") || line.hasPrefix("* ")
                || line.range(of: #"^\d+\. "#, options: .regularExpression) != nil
        }
        guard let first = lines.first, isItem(first) else {
            // one line per paragraph
            return [lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")]
        }
        var items: [String] = []
        for line in lines {
            if isItem(line) {
                let text =
                    line.hasPrefix("- ") || line.hasPrefix("* ")
                    ? String(line.dropFirst(2))
                    : line.replacingOccurrences(of: #"^\d+\. "#, with: "", options: .regularExpression)
                items.append(text)
            } else if !items.isEmpty {
                items[items.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return items
    }
}
