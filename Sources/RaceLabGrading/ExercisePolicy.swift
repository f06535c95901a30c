import Foundation
import TSanReports

/// One way an exercise broke the policy: where, which construct, and why it is refused.
public struct PolicyViolation: Codable, Sendable, Equatable, CustomStringConvertible {
    public let rule: String
    /// "Labs/ListAdder/Exercise.swift", or the object file for a binary check.
    public let file: String
    /// 1-based; nil for what the compiled code shows (no source line).
    public let line: Int?
    /// What was found: "@_silgen_name", "a call to write".
    public let construct: String
    public let why: String

    /// `construct` is cut to 200 characters: what an exercise names can be as long as it likes.
    public init(rule: String, file: String, line: Int?, construct: String, why: String) {
        self.rule = rule
        self.file = file
        self.line = line
        self.construct = construct.count > 200 ? String(construct.prefix(200)) + "…" : construct
        self.why = why
    }

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(construct): \(why)"
    }
}

/// One thing no honest fix needs and a cheat does: the exercise checks refuse any exercise that
/// holds one, before it runs (score 0, status `rejected`).
public struct ExerciseRule: Sendable {
    public enum Check: String, Sendable {
        /// Read in the exercise's source (comments and string text are ignored).
        case source
        /// Read in the compiled exercise (what the linker would put in the child).
        case binary
    }

    public let id: String
    public let check: Check
    /// What a reader looks for.
    public let construct: String
    /// Why it is refused, in words for the student.
    public let why: String
    /// Source rules: a snippet that breaks exactly this rule (the tests compile the list from it).
    public let example: String
    /// Source rules: a regular expression over the code (capture group 1, when present, is shown).
    let pattern: String

    init(_ id: String, _ check: Check, construct: String, why: String, example: String = "", pattern: String = "") {
        self.id = id
        self.check = check
        self.construct = construct
        self.why = why
        self.example = example
        self.pattern = pattern
    }
}

/// The exercise checks, in one place. An exercise is the student's Swift in one module that may
/// import LabKit and its own lab's module; everything it needs for a thread-safety fix (locks,
/// queues, operations, atomics, conditions, actors, `Mutex`) passes. Refused is whatever can
/// reach around the harness: declare or replace symbols, run code before `main`, silence or
/// steer ThreadSanitizer, touch descriptors, the environment or other processes, end the
/// process, or use the scenario's own controls. Documented for instructors in
/// docs/exercise-policy.md (a test keeps the two in step).
public enum ExercisePolicy {
    /// Modules an exercise may import besides its own lab's.
    public static let allowedImports: Set<String> = [
        "Foundation", "FoundationEssentials", "Dispatch", "Synchronization", "Swift", "_Concurrency", "LabKit"
    ]

    /// Names of what the harness and LabKit keep for themselves; an exercise may not declare one.
    static let harnessNames = [
        "Checkpoint", "ScenarioRun", "ScenarioDriver", "ScenarioPlan", "MainThreadChecker", "DeallocationLog",
        "TraceFile",
        "ChildSession", "ChannelWriter", "ChildChannel", "LabScenario", "PlayableLab"
    ]

    public static let rules: [ExerciseRule] = [
        // Declaring or replacing symbols, and code that runs before main.
        ExerciseRule(
            "silgen-name", .source, construct: "@_silgen_name",
            why:
                "it binds Swift code to any symbol name, which is how harness and ThreadSanitizer functions are called or replaced",
            example: "@_silgen_name(\"rl_checkpoint_release\") func release()", pattern: #"(@\s*_silgen_name)\b"#),
        ExerciseRule(
            "cdecl", .source, construct: "@_cdecl",
            why: "it exports a C symbol, for example a ThreadSanitizer hook such as __tsan_default_options",
            example: "@_cdecl(\"__tsan_default_options\") func options() {}", pattern: #"(@\s*_cdecl)\b"#),
        ExerciseRule(
            "extern", .source, construct: "@_extern",
            why: "it declares a foreign function to call by name",
            example: "@_extern(c, \"dup2\") func dup2(_ a: Int32, _ b: Int32) -> Int32", pattern: #"(@\s*_extern)\b"#),
        ExerciseRule(
            "section", .source, construct: "@_section",
            why:
                "it puts data in a linker section of your choice; in .init_array that is code that runs before main, before the harness",
            example: "@_section(\".init_array\") let early: @convention(c) () -> Void = {}",
            pattern: #"(@\s*_section)\b"#),
        ExerciseRule(
            "used", .source, construct: "@_used",
            why: "it keeps a symbol the program never uses; with @_section it makes a load-time hook",
            example: "@_used let keep = 1", pattern: #"(@\s*_used)\b"#),
        ExerciseRule(
            "spi", .source, construct: "@_spi",
            why:
                "it opens LabKit's scenario-only part (checkpoints, the deallocation log), which an exercise must not steer",
            example: "@_spi(LabAuthoring) import LabKit", pattern: #"(@\s*_spi)\b"#),
        ExerciseRule(
            "dynamic-replacement", .source, construct: "@_dynamicReplacement",
            why: "it swaps a function of another module for yours while the program runs",
            example: "@_dynamicReplacement(for: add(_:)) func myAdd(_ n: Int) {}",
            pattern: #"(@\s*_dynamicReplacement)\b"#),
        ExerciseRule(
            "underscored-attribute", .source, construct: "an underscored attribute",
            why: "attributes starting with @_ are compiler internals; no fix needs one",
            example: "@_optimize(none) func slow() {}",
            pattern: #"(@\s*_(?!silgen_name\b|cdecl\b|extern\b|section\b|used\b|spi\b|dynamicReplacement\b)\w+)"#),
        ExerciseRule(
            "inline-never", .source, construct: "@inline(never)",
            why: "it keeps a function out of line so its symbol can be aimed at; no fix needs it",
            example: "@inline(never) func hook() {}", pattern: #"(@\s*inline\s*\(\s*never\s*\))"#),
        ExerciseRule(
            "convention-c", .source, construct: "@convention(c)",
            why: "a raw C function pointer is how code is called by address or hooked into a section; no fix needs one",
            example: "let f: @convention(c) () -> Void = {}", pattern: #"(@\s*convention\s*\(\s*c\s*\))"#),
        ExerciseRule(
            "testable", .source, construct: "@testable import",
            why: "it reaches another module's internal declarations, the harness's included",
            example: "@testable import LabKit", pattern: #"(@\s*testable)\b"#),
        ExerciseRule(
            "exported-name", .source, construct: "a public, open or package declaration other than the factory",
            why:
                "an exercise exports one name, its factory (public func make<Lab>Exercise); anything else made public could stand in for a name of the harness's, such as a lab's own type",
            example: "public let ListAdderLab = 1"),
        ExerciseRule(
            "import", .source, construct: "import",
            why: "an exercise may import only Foundation, Dispatch, Synchronization, LabKit and its own lab's module"),
        ExerciseRule(
            "source-location", .source, construct: "#sourceLocation",
            why: "it makes errors and race reports point at other files and lines",
            example: "#sourceLocation(file: \"Scenario.swift\", line: 1)", pattern: #"(#sourceLocation)\b"#),
        ExerciseRule(
            "harness-name", .source, construct: "a declaration named like the harness",
            why:
                "names of harness hooks, ThreadSanitizer and sanitizer entry points, and LabKit's scenario types are the harness's own",
            example: "func rl_checkpoint_hit() {}",
            pattern:
                #"\b(?:func|var|let|class|struct|enum|actor|protocol|typealias)\s+((?:rl_|__tsan|__sanitizer|racelab|RaceLab)\w*|"#
                + harnessNames.joined(separator: "|") + #")\b"#),
        // Code loaded or looked up by name, ThreadSanitizer steered.
        ExerciseRule(
            "dynamic-loading", .source, construct: "dlopen / dlsym",
            why: "it loads code or finds a function by name at run time",
            example: "let f = dlsym(nil, \"dup2\")",
            pattern: #"\b(dlopen|dlsym|dlvsym|dladdr|dlmopen|Bundle|NSClassFromString|_typeByName)\b"#),
        ExerciseRule(
            "tsan-call", .source, construct: "a ThreadSanitizer or sanitizer function",
            why:
                "__tsan_* and __sanitizer_* calls tell ThreadSanitizer to ignore or reorder accesses: they hide a race instead of fixing it",
            example: "__tsan_ignore_thread_begin()",
            pattern: #"\b((?:__tsan|__sanitizer|__asan|__msan|__ubsan|__lsan)\w*)"#),
        ExerciseRule(
            "tsan-annotation", .source, construct: "a ThreadSanitizer annotation (Annotate*)",
            why: "AnnotateHappensBefore, AnnotateIgnoreReadsBegin and friends tell ThreadSanitizer a race is not one",
            example: "AnnotateIgnoreReadsBegin(#file, #line)", pattern: #"\b(Annotate\w+|WTFAnnotate\w+)\b"#),
        // The environment, other processes, the end of the process.
        ExerciseRule(
            "environment", .source, construct: "changing or reading the environment",
            why: "ThreadSanitizer reads its options and suppressions from the environment; no fix needs it",
            example: "setenv(\"TSAN_OPTIONS\", \"report_bugs=0\", 1)",
            pattern: #"\b(setenv|putenv|unsetenv|clearenv|getenv|secure_getenv|environ|ProcessInfo|CommandLine)\b"#),
        ExerciseRule(
            "process", .source, construct: "starting or signalling a process",
            why: "an exercise runs inside the harness's child process and may not start, signal or trace another",
            example: "let p = Process()",
            pattern:
                #"\b(Process|NSTask|fork|vfork|posix_spawnp?|execv[pe]?|execl[pe]?|execvpe|system|popen|kill|killpg|ptrace|prctl|syscall)\b"#
        ),
        ExerciseRule(
            "exit", .source, construct: "ending the process",
            why: "the harness ends the child and reports its result; exit, abort and friends would end it without one",
            example: "exit(0)", pattern: #"(?<![.\w])(exit|_exit|_Exit|quick_exit|abort|atexit|at_quick_exit)\s*\("#),
        ExerciseRule(
            "thread-exit", .source, construct: "Thread.exit()",
            why: "it ends a thread in the middle of the scenario's work",
            example: "Thread.exit()", pattern: #"\b(Thread\s*\.\s*exit)\b"#),
        ExerciseRule(
            "descriptors", .source, construct: "writing to or changing file descriptors",
            why:
                "the harness's result channel and ThreadSanitizer's reports are file descriptors; print() is the way to show something",
            example: "FileHandle.standardError.write(Data())",
            pattern:
                #"\b(FileHandle|FileDescriptor|NSFileHandle|stdout|stderr|stdin|STDOUT_FILENO|STDERR_FILENO|STDIN_FILENO|fputs|fputc|fwrite|fprintf|vfprintf|dprintf|perror|fdopen|freopen|dup2|dup3|fcntl|ioctl)\b|(?<![.\w])((?:write|close|dup|open)\s*\(\s*\d)"#
        ),
        // Names, not argument labels: `contentsOf:` is also the standard library's
        // `append(contentsOf:)`, and `write(to: &log)` a TextOutputStream's. Whether a member
        // reads or writes files is decided on the compiled code, by its declaration (ExerciseAPI).
        ExerciseRule(
            "files", .source, construct: "files and the file system",
            why: "no fix reads or writes files; the harness's own files (suppressions, traces) are not yours to change",
            example: "try Data().write(to: URL(fileURLWithPath: \"/tmp/x\"))",
            pattern:
                #"\b(FileManager|fopen|fileURLWithPath|URL|NSURL)\b|(\.write\s*\(\s*to(?:File)?\s*:(?!\s*&))"#
        ),
        ExerciseRule(
            "memory-safety", .source, construct: "unsafe code",
            why:
                "an exercise is memory-safe Swift (the compiler checks it too): no pointers, raw memory or `unsafe`. Share state with a lock (NSLock, Mutex), a queue (DispatchQueue, OperationQueue), an Atomic, or LabKit's ReadWriteLock and DispatchBackedOperationQueue",
            example: "let raw = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)",
            pattern:
                #"((?<!nonisolated\()\bunsafe\b|@\s*unsafe\b|@\s*safe\b|\b(?:Unsafe\w*|withUnsafe\w*|unsafeBitCast|unsafeDowncast|OpaquePointer|Unmanaged|AutoreleasingUnsafeMutablePointer)\b)"#
        ),

        // Binary checks, on the compiled exercise.
        ExerciseRule(
            "foreign-definition", .binary, construct: "a symbol that is not Swift code of the exercise",
            why:
                "an exercise may define only its own Swift code; a C name (a TSan hook, main, a harness function) comes from @_cdecl or @_silgen_name"
        ),
        ExerciseRule(
            "load-time-code", .binary, construct: "code that runs before main",
            why:
                "an .init_array (or .ctors, .preinit_array, .fini_array) entry other than ThreadSanitizer's own runs before the harness can look"
        ),
        ExerciseRule(
            "custom-section", .binary, construct: "a section the compiler does not make",
            why: "it comes from @_section, which is how load-time hooks are made"),
        ExerciseRule(
            "c-call", .binary, construct: "a call to a C function outside the allowed list",
            why:
                "the allowed C functions are the Swift runtime, ThreadSanitizer's own instrumentation, memory, time, sleeping and the pthread/semaphore/dispatch synchronisation calls; anything else can touch descriptors, processes, signals or the environment"
        ),
        ExerciseRule(
            "compiled-exercise", .binary, construct: "an exercise whose compiled objects cannot be found",
            why:
                "the binary checks read the objects SwiftPM's native build system leaves in <Lab>Exercises.build/; where they are not (another build system), nothing checked would be graded, so the exercise is not: build with `swift build --build-system native` (the default of this toolchain)"
        ),
        ExerciseRule(
            "forbidden-api", .binary, construct: "a Swift API that is not on the list an exercise may use",
            why:
                "an exercise may use its lab's module, LabKit's public API, the standard library, Dispatch, Synchronization and Foundation's threads, operations, locks, run loops, notifications, values, collections and formatting; files, URLs, processes, the environment, reflection and the harness's own modules are out of its reach"
        )
    ]

    public static func rule(_ id: String) -> ExerciseRule { rules.first { $0.id == id }! }

    // MARK: Source

    /// Every violation in one exercise file. `labModule`: the lab's own module (importable).
    /// Each rule reads the code as a whole, not line by line: an attribute may be split from its
    /// `@` by spaces, a line break or a comment, and is still that attribute.
    public static func check(source: String, file: String, labModule: String) -> [PolicyViolation] {
        let code = SwiftSourceScanner.codeOnly(source)
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var lineStarts: [Int] = []  // UTF-16 offset of each line's start
        var offset = 0
        for line in lines {
            lineStarts.append(offset)
            offset += line.utf16.count + 1
        }
        func lineNumber(at location: Int) -> Int {
            var low = 0
            var high = lineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= location { low = middle } else { high = middle - 1 }
            }
            return low + 1
        }
        var found: [PolicyViolation] = []
        for rule in rules where rule.check == .source && !rule.pattern.isEmpty {
            guard let expression = try? NSRegularExpression(pattern: rule.pattern) else { continue }
            for match in expression.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                found.append(
                    PolicyViolation(
                        rule: rule.id, file: file, line: lineNumber(at: match.range.location),
                        construct: shown(match, in: code, rule: rule), why: rule.why))
            }
        }
        for (index, line) in lines.enumerated() {
            if let module = importedModule(line), module != labModule, !allowedImports.contains(module) {
                let rule = rule("import")
                found.append(
                    PolicyViolation(
                        rule: rule.id, file: file, line: index + 1, construct: "import \(module)",
                        why: rule.why.replacingOccurrences(of: "its own lab's module", with: "\(labModule) (its lab)")))
            }
        }
        found += exportedNames(in: code, labModule: labModule, file: file, lineNumber: lineNumber)
        return found.sorted { ($0.line ?? 0, $0.rule) < ($1.line ?? 0, $1.rule) }
    }

    /// An exercise exports one name, its factory (`public func make<Lab>Exercise`); anything
    /// else made public, open or package could stand in for a name of the harness's.
    static func exportedNames(in code: String, labModule: String, file: String, lineNumber: (Int) -> Int)
        -> [PolicyViolation]
    {
        // The word as a modifier: before a declaration (maybe after `(set)` and attributes).
        let modifier =
            #"(?<![.\w])(public|open|package)(?:\s*\(\s*set\s*\))?\s+(?=(?:@\w+(?:\([^)]*\))?\s+)*"#
            + #"(?:func|var|let|class|struct|enum|extension|protocol|actor|typealias|init|subscript|static|final|override|"#
            + #"convenience|required|nonisolated|lazy|weak|unowned|mutating|dynamic|indirect|import|operator|macro|"#
            + #"precedencegroup|distributed|consuming|borrowing|fileprivate|private|internal|public|open|package)\b)"#
        guard let expression = try? NSRegularExpression(pattern: modifier) else { return [] }
        let factory = try? NSRegularExpression(
            pattern: #"^public\s+func\s+make"# + NSRegularExpression.escapedPattern(for: labModule) + #"Exercise\s*\("#)
        let rule = rule("exported-name")
        var found: [PolicyViolation] = []
        let text = code as NSString
        for match in expression.matches(in: code, range: NSRange(location: 0, length: text.length)) {
            let rest = text.substring(from: match.range.location)
            if factory?.firstMatch(in: rest, range: NSRange(location: 0, length: min((rest as NSString).length, 200)))
                != nil
            {
                continue
            }
            found.append(
                PolicyViolation(
                    rule: rule.id, file: file, line: lineNumber(match.range.location),
                    construct: text.substring(with: match.range), why: rule.why))
        }
        return found
    }

    /// "import X", "@preconcurrency import X", "internal import struct X.Y" -> "X".
    static func importedModule(_ line: String) -> String? {
        let pattern =
            #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:class|struct|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][\w]*)"#
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
            let range = Range(match.range(at: 1), in: line)
        else { return nil }
        return String(line[range])
    }

    /// What a match found, its white space squeezed ("@ _silgen_name" shows as "@_silgen_name").
    private static func shown(_ match: NSTextCheckingResult, in text: String, rule: ExerciseRule) -> String {
        var shown = Range(match.range, in: text).map { String(text[$0]) } ?? rule.construct
        for group in 1..<max(match.numberOfRanges, 1) {
            if let range = Range(match.range(at: group), in: text) {
                shown = String(text[range])
                break
            }
        }
        return shown.replacingOccurrences(of: #"@\s+"#, with: "@", options: .regularExpression).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// A compiler error of the strict memory-safety check ("Exercise.swift:12: error: expression
    /// uses unsafe constructs ... [#StrictMemorySafety]"), as the rule it breaks; nil for any
    /// other error. `file`: the exercise file as the report names it.
    public static func memorySafetyViolation(fromCompilerError line: String, file: String) -> PolicyViolation? {
        guard line.contains("[#StrictMemorySafety]") else { return nil }
        let number = line.firstMatch(of: #/\.swift:(\d+)/#).flatMap { Int($0.1) }
        let said = line.firstMatch(of: #/error: (.*?)\s*\[#StrictMemorySafety\]/#).map { String($0.1) } ?? "unsafe code"
        let rule = rule("memory-safety")
        return PolicyViolation(rule: rule.id, file: file, line: number, construct: said, why: rule.why)
    }
}

extension ExercisePolicy {
    /// The rules as a Markdown table (docs/exercise-policy.md holds this very text; a test
    /// keeps the two the same).
    public static var markdownTable: String {
        var lines = ["| rule | checked in | what | why it is refused |", "|---|---|---|---|"]
        for rule in rules {
            let what = rule.construct.replacingOccurrences(of: "|", with: "\\|")
            let example =
                rule.example.isEmpty ? "" : " e.g. `\(rule.example.replacingOccurrences(of: "|", with: "\\|"))`"
            lines.append(
                "| `\(rule.id)` | \(rule.check == .source ? "source" : "compiled code") | \(what)\(example) | \(rule.why) |"
            )
        }
        return lines.joined(separator: "\n")
    }
}
