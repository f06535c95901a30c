import Foundation

/// One report of a log, explained; repeats of the same report are counted, not explained again.
public struct ExplainedReport: Codable, Sendable, Equatable {
    public var report: TSanReport
    /// How many times the log printed this report (same kind, same places).
    public var occurrences: Int
    public var explanation: String
}

/// What `racelab explain` says about a log: the parsed reports and the plain-words text.
public struct TSanExplanation: Codable, Sendable, Equatable {
    /// Reports as printed in the log, repeats included.
    public var reportCount: Int
    public var reports: [ExplainedReport]
    /// Lines that say the program crashed ("Fatal error: ...").
    public var crashLines: [String]
    /// The whole explanation, as printed.
    public var text: String
}

/// Turns a ThreadSanitizer log into an explanation for a learner: what kind of problem, the
/// two accesses (who, what, where, the source line), the memory, why nothing ordered them,
/// and the usual cures. No I/O: source lines come from `sourceLine`, which may return nil.
public enum TSanExplainer {
    /// The text of `line` (1-based) in `file`, or nil when the file cannot be read.
    public typealias SourceLookup = (_ file: String, _ line: Int) -> String?

    public static func explain(_ log: String, width: Int = 80, sourceLine: @escaping SourceLookup = { _, _ in nil }) -> TSanExplanation {
        let all = TSanReportParser.parse(log)
        // Reports that would read the same (same kind, threads, places, memory) are explained
        // once: TSan often prints one race several times, with stacks that differ only in
        // frames a learner cannot change.
        var groups: [(report: TSanReport, count: Int)] = []
        var groupIndex: [String: Int] = [:]
        for report in all {
            var probe = Writer(width: width, sourceLine: { _, _ in nil })
            probe.body(report)
            let key = (report.kind == .other ? report.text : report.kind.rawValue) + "\n" + probe.text
            if let index = groupIndex[key] {
                groups[index].count += 1
            } else {
                groupIndex[key] = groups.count
                groups.append((report, 1))
            }
        }
        let crashes = crashLines(in: log)

        var explained: [ExplainedReport] = []
        var text = Writer(width: width, sourceLine: sourceLine)
        text.say(headline(reportCount: all.count, distinct: groups.count))
        var firstOfKind: [String: Int] = [:]  // a kind is described in full once per log
        for (number, group) in groups.enumerated() {
            var part = Writer(width: width, sourceLine: sourceLine)
            let kindName = group.report.kind == .other ? group.report.title : group.report.kind.rawValue
            part.explain(group.report, number: number + 1, of: groups.count, occurrences: group.count,
                         describedIn: firstOfKind[kindName])
            if firstOfKind[kindName] == nil { firstOfKind[kindName] = number + 1 }
            explained.append(ExplainedReport(report: group.report, occurrences: group.count, explanation: part.text))
            text.blank()
            text.lines += part.lines
            text.shownSource = text.shownSource || part.shownSource
        }
        if groups.isEmpty {
            text.blank()
            text.say("""
                TSan writes its reports to standard error; each starts with "WARNING: ThreadSanitizer:". \
                If you expected one: build with `swift build --sanitize=thread`, keep standard error \
                (2> log.txt), and run a few times. TSan only sees a race that really happens in that run.
                """)
        }
        if !crashes.isEmpty {
            text.blank()
            text.crashes(crashes, afterReports: !groups.isEmpty)
        }
        if text.shownSource {
            text.blank()
            text.say("(Source lines are read from the files as they are now: if one changed after the run, it may not match.)")
        }
        return TSanExplanation(reportCount: all.count, reports: explained, crashLines: crashes, text: text.text)
    }

    static func headline(reportCount: Int, distinct: Int) -> String {
        switch (reportCount, distinct) {
        case (0, _): return "racelab explain: no ThreadSanitizer report found in this log."
        case (1, _): return "racelab explain: 1 ThreadSanitizer report in this log."
        case let (count, distinct) where distinct == count:
            return "racelab explain: \(count) ThreadSanitizer reports in this log."
        case let (count, distinct):
            return "racelab explain: \(count) ThreadSanitizer reports in this log, \(distinct) different "
                + "(a report that reads the same as an earlier one is explained once)."
        }
    }

    /// Distinct lines that say the program crashed, in order (at most a few).
    static func crashLines(in log: String) -> [String] {
        var seen: [String] = []
        for line in TSanReportParser.stripColour(log).split(separator: "\n") {
            guard TSanReportParser.crashMarkers.contains(where: { line.contains($0) }) else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !seen.contains(trimmed) { seen.append(trimmed) }
            if seen.count == 3 { break }
        }
        return seen
    }
}

// MARK: - Reading frames

extension TSanExplainer {
    /// A frame in the program's own code: it has a source file, and it is not TSan's runtime,
    /// the C library, the compiler's glue or a system library (Foundation, Dispatch, the
    /// Swift runtime), whose lines a learner cannot change.
    static func isOwnCode(_ frame: TSanReport.Frame) -> Bool {
        guard let file = frame.file, !file.hasPrefix("/<"), !file.contains("compiler-rt/"),
              !file.hasPrefix("csu/"), !file.contains("sysdeps/") else { return false }
        if let module = frame.module, module.hasPrefix("lib"), module.contains(".so") || module.hasSuffix(".dylib") {
            return false
        }
        return true
    }

    /// The first frame in the program's own code, else the first frame with a name.
    static func mainFrame(_ frames: [TSanReport.Frame]) -> TSanReport.Frame? {
        frames.first(where: isOwnCode) ?? frames.first { $0.function != "<null>" }
    }

    /// The name of a frame's function, for reading: "worker1()" rather than
    /// "lockOrder.worker1() -> ()", "closure #1 in top-level code" rather than "closure #1 in lockOrder".
    static func readableName(_ frame: TSanReport.Frame) -> String {
        var name = frame.demangled
        if !name.hasPrefix("$"), name.hasSuffix("_main"), !name.contains(" ") {
            return "top-level code"  // what the C entry point `<module>_main` runs: main.swift
        }
        name = withoutTypeAnnotation(name)
        name = name.replacingOccurrences(of: "__allocating_init(", with: "init(")
        if let module = frame.module, !module.contains(".") {
            let escaped = NSRegularExpression.escapedPattern(for: module)
            // A closure in main.swift demangles as "closure #1 in <module>".
            name = name.replacingOccurrences(of: "^((?:closure #\\d+ in )+)\(escaped)$", with: "$1top-level code", options: .regularExpression)
            name = name.replacingOccurrences(of: "(^| in |static )\(escaped)\\.", with: "$1", options: .regularExpression)
        }
        return withShortArguments(name)
    }

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
        for offset in topLevelOffsets(characters) where offset + 2 < characters.count
            && characters[offset] == " " && characters[offset + 1] == ":" && characters[offset + 2] == " " {
            return String(characters[..<offset])
        }
        return name
    }

    /// A long argument list keeps only its labels: "play(_: LabVariant<...>, in: ScenarioRun)"
    /// becomes "play(_:in:)"; a short one ("add(Int)") stays as it is.
    static func withShortArguments(_ name: String) -> String {
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
            guard let match = withoutTypeAnnotation(full).firstMatch(of: /^(.+)\.(modify|setter|getter|read|unsafeMutableAddressor)$/) else { continue }
            var name = String(match.1)
            if let module = frame.module, name.hasPrefix(module + ".") { name = String(name.dropFirst(module.count + 1)) }
            let type = full.count > withoutTypeAnnotation(full).count ? String(full.dropFirst(withoutTypeAnnotation(full).count + 3)) : nil
            return (name, type)
        }
        return nil
    }

    /// "in closure #1 in ListAdderBroken.recalculate(), Broken.swift:37".
    static func place(_ frame: TSanReport.Frame, _ preposition: String = "in") -> String {
        var text = preposition + " " + readableName(frame)
        if let location = frame.shortLocation {
            text += ", " + location
            if (frame.line ?? 0) <= 0 { text += " (TSan gave no line)" }
        } else if let module = frame.module {
            text += " (in \(module), no source line)"
        }
        return text
    }

    /// "the main thread", "thread T2".
    static func who(_ thread: String?) -> String {
        guard let thread else { return "a thread TSan did not name" }
        return thread == "main thread" ? "the main thread" : thread
    }

    static func capitalised(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    /// "Thread T2 is a Foundation Thread, started by the main thread in ListAdderBroken.add(Int),
    /// Broken.swift:18." Nil for the main thread or a thread the report does not describe.
    static func origin(of thread: String?, in report: TSanReport) -> String? {
        guard let thread, thread != "main thread",
              let created = report.threads.first(where: { $0.thread == thread }) else { return nil }
        let functions = created.frames.map(\.function)
        let kind: String
        if functions.contains(where: { $0.contains("dispatch_") }) {
            kind = "a Dispatch worker thread (it runs blocks from DispatchQueue or OperationQueue)"
        } else if functions.contains("_CFThreadCreate") {
            kind = "a Foundation Thread"
        } else {
            kind = "a thread made with pthread_create"
        }
        let creator = created.description.firstMatch(of: /created by (main thread|thread T\d+)/).map { who(String($0.1)) }
        var text = "\(capitalised(thread)) is \(kind)"
        if let creator { text += ", started by \(creator)" }
        if let frame = created.frames.first(where: isOwnCode) { text += " " + place(frame) }
        return text + "."
    }

    /// "write M0" becomes "M0".
    static func lockNames(_ access: TSanReport.Access) -> [String] {
        (access.heldMutexes ?? []).compactMap { $0.split(separator: " ").last.map(String.init) }
    }

    /// TSan's own name for the action, in plain words.
    static func action(_ access: TSanReport.Access) -> String {
        let lower = access.description.lowercased()
        if lower.hasPrefix("modifying") || lower.hasPrefix("previous modifying") {
            return "modified it (an append, a +=, any change in place)"
        }
        let amount = access.size.map { $0 == 1 ? "1 byte" : "\($0) bytes" }
        let atomic = lower.contains("atomic") ? "atomically " : ""
        if access.isWrite { return atomic + "wrote " + (amount ?? "it") }
        return atomic + "read " + (amount ?? "it")
    }

    /// Functions that give memory back: an access in one of them is the freeing.
    static let freeingFunctions: Set<String> = ["free", "cfree", "_ZdlPv", "_ZdaPv", "swift_slowDealloc", "munmap"]

    static func isFreeing(_ access: TSanReport.Access) -> Bool {
        access.frames.prefix(2).contains { freeingFunctions.contains($0.function) }
    }
}

extension TSanExplainer {
    /// What a kind of report means, in plain words (nil: RaceLab has no words for it yet).
    static func whatItIs(_ kind: TSanReport.Kind) -> String? {
        switch kind {
        case .dataRace:
            return """
                What it is: a data race. Two threads used the same memory, at least one of them \
                wrote it, and nothing put the two uses in order. What a thread then sees depends \
                on timing: the old value, the new one, or a half-written mix.
                """
        case .swiftAccessRace:
            return """
                What it is: Swift's exclusivity rule says that while code is modifying a variable \
                (an append, a += 1, a mutating method), no other code may use that variable. Two \
                threads broke that rule: they used the same variable at the same time, and nothing \
                put them in order. That is a data race that Swift itself checks for.
                """
        case .heapUseAfterFree:
            return """
                What it is: one thread gave memory back (freed it), and afterwards a thread still \
                used it. Freed memory can be handed out again for something else, so a read sees \
                garbage and a write damages some other object.
                """
        case .lockOrderInversion:
            return """
                What it is: a possible deadlock. Two threads took the same locks in opposite \
                orders. If each takes its first lock at the same moment, each then waits forever \
                for the lock the other holds. It did not have to hang in this run to be a real \
                risk: TSan reports the order itself.
                """
        case .threadLeak:
            return """
                What it is: a thread was started and nobody joined it (waited for it to end, with \
                pthread_join) or detached it (declared that nobody will wait). Its stack and \
                bookkeeping stay allocated until the program ends, and nobody knows when its work \
                is done.
                """
        case .other:
            return nil
        }
    }
}

// MARK: - Writing

extension TSanExplainer {
    /// Collects wrapped lines for one explanation.
    struct Writer {
        let width: Int
        let sourceLine: SourceLookup
        var lines: [String] = []
        /// Whether a line of the program's source was quoted (it may be newer than the log).
        var shownSource = false

        var text: String { lines.joined(separator: "\n") }

        mutating func blank() {
            if let last = lines.last, !last.isEmpty { lines.append("") }
        }

        mutating func say(_ text: String, indent: Int = 0, hanging: Int? = nil) {
            lines += TextWrapper.wrap(text, width: width, indent: spaces(indent), continuation: spaces(hanging ?? indent))
        }

        mutating func bullet(_ text: String) {
            say("- " + text, indent: 2, hanging: 4)
        }

        /// The source line of `frame`, when it has one and the file can be read.
        mutating func source(of frame: TSanReport.Frame, indent: Int) {
            guard let file = frame.file, let line = frame.line, line > 0,
                  let code = sourceLine(file, line)?.trimmingCharacters(in: .whitespaces), !code.isEmpty else { return }
            lines.append(TextWrapper.cut(spaces(indent) + "\(line) | " + code, width: width))
            shownSource = true
        }

        /// Where something happened: the program's own frame with its source line, and, when
        /// TSan gave that frame no line, the nearest caller that has one.
        mutating func whereAbouts(_ frames: [TSanReport.Frame], indent: Int) {
            guard let frame = TSanExplainer.mainFrame(frames) else {
                say("(no stack: TSan could not record where this happened)", indent: indent)
                return
            }
            say(TSanExplainer.place(frame), indent: indent, hanging: indent + 3)
            source(of: frame, indent: indent + 4)
            guard (frame.line ?? 0) <= 0, let index = frames.firstIndex(of: frame),
                  let caller = frames[(index + 1)...].first(where: { TSanExplainer.isOwnCode($0) && ($0.line ?? 0) > 0 })
            else { return }
            say(TSanExplainer.place(caller, "called from"), indent: indent, hanging: indent + 3)
            source(of: caller, indent: indent + 4)
        }

        /// Raw report text, kept whole, wrapped so that it fits.
        mutating func verbatim(_ text: String) {
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let indentCount = line.prefix(while: { $0 == " " }).count
                lines += TextWrapper.wrap(String(line), width: width, indent: spaces(indentCount), continuation: spaces(indentCount + 4))
            }
        }

        func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }

        mutating func heading(_ text: String) {
            say(text)
            lines.append(String(repeating: "=", count: min(width, lines.last?.count ?? 0)))
        }

        mutating func cures(_ items: [String]) {
            blank()
            say("Usual cures:")
            for item in items { bullet(item) }
        }
    }
}

// MARK: - One report

extension TSanExplainer.Writer {
    typealias Explainer = TSanExplainer

    /// `describedIn`: the number of an earlier report of the same kind, which said what it is.
    mutating func explain(_ report: TSanReport, number: Int, of total: Int, occurrences: Int, describedIn: Int? = nil) {
        let kindName = report.kind == .other ? report.title : report.kind.rawValue
        var title = "Report \(number) of \(total): \(kindName)"
        if occurrences > 1 { title += " (printed \(occurrences) times)" }
        heading(title)
        if report.truncated {
            say("Cut off: the log ends in the middle of this report, so some parts are missing below.")
        }
        blank()
        if let describedIn, report.kind != .other {
            say("What it is: another \(kindName); report \(describedIn) says what that means.")
            blank()
        } else if let whatItIs = Explainer.whatItIs(report.kind) {
            say(whatItIs)
            blank()
        }
        body(report)
    }

    /// Everything after "What it is": the part that differs from one report to the next.
    mutating func body(_ report: TSanReport) {
        switch report.kind {
        case .dataRace, .swiftAccessRace: explainRace(report)
        case .heapUseAfterFree: explainUseAfterFree(report)
        case .lockOrderInversion: explainLockOrder(report)
        case .threadLeak: explainThreadLeak(report)
        case .other: explainUnknown(report)
        }
    }

    // MARK: data race, Swift access race

    mutating func explainRace(_ report: TSanReport) {
        accesses(report)
        if let variable = Explainer.accessedVariable(report) {
            blank()
            say("The variable: \(variable.name)" + (variable.type.map { ", a \($0)" } ?? "") + ".")
        }
        if let memory = memoryDescription(report) {
            blank()
            say(memory)
        } else if report.truncated {
            blank()
            say("Which memory it was, and where the threads came from, was cut off with the rest of the report.")
        }
        blank()
        whyUnordered(report)
        cures(raceCures(report))
    }

    /// Both accesses, oldest first: TSan prints the one it caught first, then the "previous" one.
    mutating func accesses(_ report: TSanReport) {
        let ordered = report.accesses.filter(\.isPrevious) + report.accesses.filter { !$0.isPrevious }
        switch ordered.count {
        case 0: say("The accesses: none made it into the log.")
        case 1: say("The access in the log (the other one was cut off):")
        default: say("The two accesses, in the order they happened:")
        }
        for (index, access) in ordered.enumerated() {
            let label = "\(index + 1). "
            say(label + Explainer.capitalised(Explainer.who(access.thread)) + " " + Explainer.action(access), indent: 2, hanging: 5)
            whereAbouts(access.frames, indent: 5)
            let locks = Explainer.lockNames(access)
            if !locks.isEmpty {
                say("(holding lock \(locks.joined(separator: " and ")))", indent: 5)
            }
            if let origin = Explainer.origin(of: access.thread, in: report) {
                say(origin, indent: 5)
            }
        }
    }

    /// "The memory: the global variable ..." from TSan's "Location is ..." line.
    func memoryDescription(_ report: TSanReport) -> String? {
        guard let location = report.location else { return nil }
        if let global = location.firstMatch(of: /^global '([^']+)' of size (\d+)/) {
            return "The memory: the global variable \(SwiftDemangler.demangle(String(global.1))) "
                + "(\(global.2) bytes). Every thread can reach a global, so every thread must follow the same rule to use it."
        }
        if let heap = location.firstMatch(of: /^heap block of size (\d+) .*allocated by (main thread|thread T\d+)/) {
            var text = "The memory: part of a block of \(heap.1) bytes on the heap (where objects and the "
                + "contents of arrays, dictionaries and strings live), allocated by \(Explainer.who(String(heap.2)))"
            if let frame = report.locationFrames.first(where: Explainer.isOwnCode) { text += " " + Explainer.place(frame) }
            return text + "."
        }
        if let stack = location.firstMatch(of: /^stack of (main thread|thread T\d+)/) {
            return "The memory: a local variable on the stack of \(Explainer.who(String(stack.1))), "
                + "shared with another thread (captured by a closure, or passed as a pointer)."
        }
        return "The memory: " + location + "."
    }

    mutating func whyUnordered(_ report: TSanReport) {
        let accesses = report.accesses
        let locking = accesses.filter { !Explainer.lockNames($0).isEmpty }
        var why: String
        if locking.isEmpty || accesses.count < 2 {
            why = "nothing — no lock, queue or other synchronisation — made one access wait for the other, "
                + "so they can happen in either order, or at the same moment."
        } else if locking.count == accesses.count {
            let held = accesses.map { "\(Explainer.who($0.thread)) held \(Explainer.lockNames($0).joined(separator: " and "))" }
            why = "both threads held a lock, but not the same one (\(held.joined(separator: "; "))). "
                + "Different locks do not keep each other out, so nothing made one access wait for the other."
        } else {
            let holder = locking[0]
            let other = accesses.first { Explainer.lockNames($0).isEmpty }
            let locks = Explainer.lockNames(holder).joined(separator: " and ")
            why = "\(Explainer.who(holder.thread)) held lock \(locks) during its access, but "
                + "\(Explainer.who(other?.thread)) held no lock. A lock only keeps out threads that take it too, "
                + "so nothing made \(Explainer.who(other?.thread)) wait."
            if let created = report.mutexes?.first(where: { $0.mutex == Explainer.lockNames(holder).first }),
               let frame = created.frames.first(where: Explainer.isOwnCode) {
                why += " (\(created.mutex ?? "The lock") was made \(Explainer.place(frame)).)"
            }
        }
        let atomic = accesses.filter { $0.description.lowercased().contains("atomic") }
        if !atomic.isEmpty, atomic.count < accesses.count {
            why += " One side used an atomic operation and the other did not: atomics only help when every access is atomic."
        }
        say("Why they could overlap: " + why)
        if let sleep = report.sleepFrames, !sleep.isEmpty {
            let frame = sleep.dropFirst().first(where: Explainer.isOwnCode) ?? sleep.first
            let sleepName = sleep.first.map { Explainer.readableName($0) } ?? "sleep"
            let at = frame.map { " (\(sleepName), " + Explainer.place($0) + ")" } ?? ""
            blank()
            say("Only a sleep kept them apart in time\(at). A sleep is not synchronisation: "
                + "it makes the bad timing rarer, never impossible.")
        }
    }

    func raceCures(_ report: TSanReport) -> [String] {
        let accesses = report.accesses
        let bothWrite = accesses.count >= 2 && accesses.allSatisfy(\.isWrite)
        let locking = accesses.filter { !Explainer.lockNames($0).isEmpty }
        var cures: [String] = []
        if !locking.isEmpty, locking.count < accesses.count,
           let unlocked = accesses.first(where: { Explainer.lockNames($0).isEmpty }) {
            let place = Explainer.mainFrame(unlocked.frames).map { ", here also " + Explainer.place($0) } ?? ""
            cures.append("Take the same lock around every access to this memory, reads included\(place).")
        }
        cures.append("""
            Confine the data to one thread or one serial queue (a queue that runs one block at a time): \
            only that queue touches it; other threads send it work (queue.async { ... }) or ask it for \
            a value (queue.sync { ... }).
            """)
        if bothWrite {
            cures.append("""
                Make the whole read-modify-write one step: run it on one serial queue, or hold one lock \
                from the read to the write. Locking the read and the write separately still loses updates.
                """)
            if report.kind == .dataRace, accesses.allSatisfy({ ($0.size ?? 99) <= 8 }) {
                cures.append("For a single number, an atomic does the read-modify-write as one step "
                             + "(Atomic from the Synchronization module, e.g. wrappingAdd).")
            }
        } else {
            cures.append("""
                Hand the reader an immutable copy: take a `let` snapshot where the data lives and pass \
                that to the other thread, instead of sharing the live variable.
                """)
        }
        // On the main thread, but not as one of concurrentPerform's workers: main owns this data.
        if accesses.contains(where: { access in
            access.thread == "main thread" && !access.frames.contains { $0.function.contains("dispatch_apply") }
        }) {
            cures.append("""
                The main thread is one side: keep this data main-thread-only, do slow work on a copy \
                elsewhere, and bring the result back with DispatchQueue.main.async (or OperationQueue.main).
                """)
        }
        cures.append("Or make the owner an actor (Swift concurrency): every access then waits its turn, and the compiler checks it.")
        return cures
    }

    // MARK: heap-use-after-free

    mutating func explainUseAfterFree(_ report: TSanReport) {
        let freeing = report.accesses.first(where: Explainer.isFreeing)
        let uses = report.accesses.filter { !Explainer.isFreeing($0) }
        if let freeing {
            say("1. " + Explainer.capitalised(Explainer.who(freeing.thread)) + " freed the memory", indent: 2, hanging: 5)
            whereAbouts(freeing.frames, indent: 5)
            if let origin = Explainer.origin(of: freeing.thread, in: report) { say(origin, indent: 5) }
        } else {
            say("Where the memory was freed is not in the log.", indent: 2)
        }
        for use in uses {
            say("2. Then " + Explainer.who(use.thread) + " " + Explainer.action(use) + " of it", indent: 2, hanging: 5)
            whereAbouts(use.frames, indent: 5)
            if let origin = Explainer.origin(of: use.thread, in: report) { say(origin, indent: 5) }
        }
        if let memory = memoryDescription(report) {
            blank()
            say(memory)
        }
        blank()
        say("Why they could overlap: nothing — no lock, queue, join or other synchronisation — made "
            + "the freeing wait until every other thread was done with the memory.")
        cures([
            "Let Swift manage the lifetime: use a class, an Array or Data instead of UnsafeMutablePointer, so the memory lives as long as anyone still uses it.",
            "If you must free by hand, give the memory one owner, and free it only after every other user is done (join the threads, or wait on a DispatchGroup).",
            "Never hand a raw pointer to another thread without deciding who frees it, and when.",
        ])
    }

    // MARK: lock-order inversion

    mutating func explainLockOrder(_ report: TSanReport) {
        if let cycle = report.lockCycle {
            let plain = cycle.replacingOccurrences(of: #" \(0x[0-9a-fA-F]+\)"#, with: "", options: .regularExpression)
                .replacingOccurrences(of: " => ", with: " -> ")
            say("The cycle: \(plain) (M0, M1 are TSan's names for the locks).")
        }
        var waits: [String] = []
        var threadsSeen: [String?] = []
        let accesses = report.accesses
        for (index, edge) in accesses.enumerated() {
            guard let wanted = edge.mutex, let held = edge.heldMutex else { continue }
            let thread = Explainer.who(edge.thread)
            waits.append("\(thread) holds \(held) and wants \(wanted)")
            threadsSeen.append(edge.thread)
            let next = index + 1 < accesses.count ? accesses[index + 1] : nil
            if let earlier = next, earlier.mutex == held, earlier.heldMutex == nil {
                say("\(Explainer.capitalised(thread)) took \(held)", indent: 2)
                whereAbouts(earlier.frames, indent: 4)
                say("and then \(wanted), still holding \(held)", indent: 2)
            } else {
                say("\(Explainer.capitalised(thread)) took \(wanted) while holding \(held)", indent: 2)
            }
            whereAbouts(edge.frames, indent: 4)
        }
        if !accesses.contains(where: { $0.heldMutex == nil && $0.mutex != nil }), !waits.isEmpty {
            say("(Where each thread took its first lock is not in the log: TSAN_OPTIONS=second_deadlock_stack=1 adds it.)", indent: 2)
        }
        for thread in threadsSeen {
            if let origin = Explainer.origin(of: thread, in: report) { say(origin, indent: 2) }
        }
        blank()
        if waits.isEmpty {
            say("Why it can hang: each thread would hold one lock and wait for another that a thread in the cycle holds.")
        } else {
            say("Why it can hang: " + waits.joined(separator: ", while ") + ". If they get there at the same time, "
                + "neither can go on, and nothing in the program stops them from doing so.")
        }
        cures([
            "Pick one order for these locks and take them in that order everywhere (for example, always M0 before M1).",
            "Hold one lock at a time: copy what you need, unlock, then take the other lock.",
            "If the locks guard data that belongs together, use one lock (or one serial queue) for all of it.",
            "Do not call out to other code (callbacks, delegates) while holding a lock: it may take another lock.",
        ])
    }

    // MARK: thread leak

    mutating func explainThreadLeak(_ report: TSanReport) {
        if report.threads.isEmpty { say("The thread: not named in the log.") }
        for thread in report.threads {
            let name = Explainer.capitalised(Explainer.who(thread.thread))
            let creator = thread.description.firstMatch(of: /created by (main thread|thread T\d+)/).map { Explainer.who(String($0.1)) }
            say("\(name) was created by \(creator ?? "another thread") here:", indent: 2)
            whereAbouts(thread.frames, indent: 4)
            if thread.description.contains(", finished)") {
                say("When the program ended, it had finished its work, but nobody had collected it.", indent: 2)
            } else if thread.description.contains(", running)") {
                say("When the program ended, it was still running: its work may have been cut off.", indent: 2)
            }
        }
        blank()
        say("Why: nothing in the program waited for this thread to end.")
        cures([
            "Join the thread (pthread_join) before its owner or the program goes away; then you also know its work is done.",
            "If nobody needs to wait for it, detach it (pthread_detach) right after creating it.",
            "Better: let Foundation or Dispatch manage threads (Thread, DispatchQueue, OperationQueue), and wait for the work with a DispatchGroup or OperationQueue.waitUntilAllOperationsAreFinished().",
        ])
    }

    // MARK: anything else

    mutating func explainUnknown(_ report: TSanReport) {
        say("RaceLab has no plain-words explanation for this kind of report yet. Here it is whole, as TSan printed it:")
        blank()
        verbatim(report.text)
    }

    // MARK: crashes

    mutating func crashes(_ crashLines: [String], afterReports: Bool) {
        say(crashLines.count == 1 ? "The log also shows a crash:" : "The log also shows crashes:")
        for line in crashLines { say(line, indent: 2, hanging: 4) }
        if afterReports {
            say("""
                A crash after a race is often its result: a thread used data that another thread \
                changed under it (for example, an index that was valid when checked is gone when \
                used). Fix the race first; the crash often goes away with it.
                """)
        } else {
            say("There is no race report, so the crash may have another cause. If threads share data, run it again under TSan.")
        }
    }
}
