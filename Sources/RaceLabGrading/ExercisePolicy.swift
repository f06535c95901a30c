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
        ExerciseRule(
            "files", .source, construct: "files and the file system",
            why: "no fix reads or writes files; the harness's own files (suppressions, traces) are not yours to change",
            example: "try Data().write(to: URL(fileURLWithPath: \"/tmp/x\"))",
            pattern:
                #"\b(FileManager|fopen|fileURLWithPath|contentsOfFile|contentsOf|URL|NSURL)\b|(\.write\s*\(\s*to(?:File)?\s*:)"#
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

    // MARK: Binary

    /// C functions an exercise's compiled code may call (exact names, or prefixes ending in `*`).
    static let allowedCFunctions: [String] = [
        // The Swift runtime and what the compiler emits around it.
        "swift_*", "_swift_*", "__swift_*", "_swiftEmptyArrayStorage", "_swiftEmptyDictionarySingleton",
        "_swiftEmptySetSingleton",
        "_Block_copy", "_Block_release", "_NSConcreteStackBlock", "_NSConcreteGlobalBlock",
        "_Unwind_Resume", "__gcc_personality_v0", "__stack_chk_fail", "__stack_chk_guard", "__dso_handle",
        "__tls_get_addr",
        // ThreadSanitizer's own instrumentation (what -sanitize=thread inserts; never an annotation).
        "__tsan_init", "__tsan_func_entry", "__tsan_func_exit", "__tsan_read1", "__tsan_read2", "__tsan_read4",
        "__tsan_read8",
        "__tsan_read16", "__tsan_write1", "__tsan_write2", "__tsan_write4", "__tsan_write8", "__tsan_write16",
        "__tsan_unaligned_read*", "__tsan_unaligned_write*", "__tsan_read_range", "__tsan_write_range",
        "__tsan_external_read", "__tsan_external_write", "__tsan_atomic*", "__tsan_memset", "__tsan_memcpy",
        "__tsan_memmove",
        "__tsan_vptr_read", "__tsan_vptr_update",
        // Memory, time, sleeping, randomness, mathematics.
        "memcpy", "memmove", "memset", "memcmp", "bzero", "strlen", "malloc", "calloc", "realloc", "free",
        "posix_memalign",
        "aligned_alloc", "malloc_usable_size", "usleep", "nanosleep", "sleep", "sched_yield", "clock_gettime",
        "gettimeofday",
        "time", "arc4random*", "random", "rand", "drand48", "sqrt*", "sin*", "cos*", "tan*", "exp*", "log*", "pow*",
        "floor*",
        "ceil*", "fabs*", "fmod*", "round*", "trunc*", "hypot*", "atan*", "fmin*", "fmax*",
        // Synchronisation.
        "pthread_mutex_*", "pthread_mutexattr_*", "pthread_rwlock_*", "pthread_rwlockattr_*", "pthread_cond_*",
        "pthread_condattr_*", "pthread_spin_*", "pthread_once", "pthread_self", "pthread_equal", "pthread_create",
        "pthread_join",
        "pthread_detach", "pthread_attr_*", "pthread_key_*", "pthread_getspecific", "pthread_setspecific",
        "pthread_setname_np",
        "sem_init", "sem_destroy", "sem_wait", "sem_trywait", "sem_timedwait", "sem_post", "sem_getvalue",
        "dispatch_async*", "dispatch_sync*", "dispatch_barrier_*", "dispatch_group_*", "dispatch_semaphore_*",
        "dispatch_once*",
        "dispatch_queue_*", "dispatch_get_*", "dispatch_apply*", "dispatch_after*", "dispatch_time",
        "dispatch_walltime",
        "dispatch_retain", "dispatch_release", "dispatch_set_target_queue", "dispatch_suspend", "dispatch_resume",
        "dispatch_main", "dispatch_block_*", "dispatch_assert_queue*"
    ]

    /// Every violation in one compiled exercise object. `module`: the exercise's module;
    /// `labModule`: its lab's (default: `module` less "Exercises", "Solutions" or "Corpus").
    public static func check(object: ObjectFile, file: String, module: String, labModule: String? = nil)
        -> [PolicyViolation]
    {
        let lab =
            labModule
            ?? ["Exercises", "Solutions", "Corpus"].reduce(module) { name, suffix in
                name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : name
            }
        var found: [PolicyViolation] = []
        func add(_ id: String, _ construct: String) {
            let rule = rule(id)
            if found.count < maximumFindings, !found.contains(where: { $0.rule == id && $0.construct == construct }) {
                found.append(PolicyViolation(rule: id, file: file, line: nil, construct: construct, why: rule.why))
            }
        }
        // An object no honest exercise comes near (a type that grows with every line): refused
        // as such, rather than read for minutes.
        guard object.symbols.count <= maximumSymbols else {
            add(
                "forbidden-api",
                "an object of \(object.symbols.count) symbols, too large to check (at most \(maximumSymbols))")
            return found
        }
        // A Swift symbol of the exercise names its module, as its context ("ListAdderExercises.X")
        // or as the module of an extension ("(extension in ListAdderExercises):ListAdderLab.x").
        func isOwn(_ name: String) -> Bool {
            guard name.hasPrefix("$s"), name.utf8.count <= SwiftDemangler.maximumLength else { return false }
            let readable = SwiftDemangler.demangleFully(name)
            return readable.contains("\(module).") || readable.contains("(extension in \(module))")
        }
        for symbol in object.symbols where symbol.isDefined && symbol.isGlobal {
            // Strong definitions: only the exercise's own Swift code. Weak ones: the compiler's
            // shared copies of generic code, metadata references and helpers, which any strong
            // definition would override, never the other way round.
            let allowed =
                symbol.isWeak
                ? symbol.name.hasPrefix("$s") || weakCompilerPrefixes.contains(where: symbol.name.hasPrefix)
                : isOwn(symbol.name)
            if !allowed { add("foreign-definition", "defines \(SwiftDemangler.demangle(symbol.name))") }
        }
        for section in object.sections {
            let name = section.name
            if isLoadTimeSection(name) {
                // ThreadSanitizer's module constructor (it only calls __tsan_init) is the one entry.
                let entries = section.references
                for target in entries
                where !(entries.count == 1 && ["tsan.module_ctor", ".text.tsan.module_ctor"].contains(target)) {
                    add("load-time-code", "\(name) entry \(SwiftDemangler.demangle(target))")
                }
            } else if !isCompilerSection(name) {
                add("custom-section", "section \(name)")
            }
            if name == ".text.tsan.module_ctor" || name == ".rela.text.tsan.module_ctor" {
                for target in section.references where target != "__tsan_init" {
                    add("load-time-code", "tsan.module_ctor calls \(target)")
                }
            }
        }
        // Who calls each outside C function, for the ones allowed only from the compiler's code.
        var callers: [String: Set<String>] = [:]
        for section in object.sections {
            for use in section.uses { callers[use.target, default: []].insert(use.function ?? section.name) }
        }
        for symbol in object.symbols where !symbol.isDefined {
            if let allowed = allowedOnlyFrom[symbol.name], let from = callers[symbol.name], from.allSatisfy(allowed) {
                continue
            }
            if symbol.name.hasPrefix("$s") {
                guard symbol.name.utf8.count < 2_000 else {
                    add("forbidden-api", "a Swift name too long to read")
                    continue
                }
                let readable = SwiftDemangler.demangleFully(symbol.name)
                if let refusal = ExerciseAPI.refusal(of: readable, ownModules: [module, lab]) {
                    add("forbidden-api", refusal)
                }
            } else if !isAllowedC(symbol.name) {
                add("c-call", "a call to \(symbol.name)")
            }
        }
        return found
    }

    /// Findings kept per object (the first; an exercise refused for one is refused for all).
    static let maximumFindings = 20
    /// Symbols an exercise object may have: the labs' own have a few hundred.
    static let maximumSymbols = 5_000

    /// Weak symbols swiftc emits in any object besides Swift-mangled ones.
    static let weakCompilerPrefixes = [
        "symbolic ", "associated conformance ", "got.", "__swift_", "DW.ref.__gcc_personality_v0", "get_type_metadata "
    ]

    /// C functions allowed only when called from the compiler's own code: Mutex and the runtime's
    /// thread id read the thread id through `syscall` in SwiftShims' `_swift_stdlib_gettid`; the
    /// compiler wraps each deinit (a Swift symbol ending in `fd`, or `fD` for the deallocating
    /// one) in ThreadSanitizer's ignore
    /// calls, which called from anywhere else would hide a race.
    static let allowedOnlyFrom: [String: @Sendable (String) -> Bool] = [
        "syscall": { $0 == "_swift_stdlib_gettid" },
        "__tsan_ignore_thread_begin": isDeinit,
        "__tsan_ignore_thread_end": isDeinit
    ]

    /// A deinit as the compiler names it ("$s...Cfd", "$s...CfD").
    static let isDeinit: @Sendable (String) -> Bool = {
        $0.hasPrefix("$s") && ($0.hasSuffix("fd") || $0.hasSuffix("fD"))
    }

    static func isAllowedC(_ name: String) -> Bool {
        // The runtime's key path entry points: a read or write through one is hidden from TSan.
        if name.contains("KeyPath") { return false }
        return allowedCFunctions.contains { pattern in
            pattern.hasSuffix("*") ? name.hasPrefix(pattern.dropLast()) : name == pattern
        }
    }

    static func isLoadTimeSection(_ name: String) -> Bool {
        [".init_array", ".preinit_array", ".fini_array", ".ctors", ".dtors", ".init", ".fini"].contains {
            name == $0 || name.hasPrefix($0 + ".")
        }
            || [".rela.init_array", ".rela.preinit_array", ".rela.fini_array", ".rela.ctors", ".rela.dtors"].contains {
                name.hasPrefix($0)
            }
    }

    /// Sections swiftc (and the assembler) make for Swift code on Linux.
    static func isCompilerSection(_ name: String) -> Bool {
        if name.isEmpty { return true }
        let exact: Set<String> = [
            ".strtab", ".symtab", ".shstrtab", ".group", ".note.GNU-stack", ".eh_frame", ".rela.eh_frame",
            ".gcc_except_table",
            ".linker-options", ".llvm_addrsig", ".comment", ".swift_modhash", ".swift1_autolink_entries", ".swift_ast",
            ".bss", ".tbss",
            ".tdata", ".data", ".rodata", ".note.swift_reflection_metadata"
        ]
        if exact.contains(name) { return true }
        let prefixes = [
            ".text", ".rela.text", ".data.", ".rela.data", ".rodata.", ".rela.rodata", ".bss.", ".tbss.", ".tdata.",
            ".rela.tdata",
            "swift5_", ".relaswift5_", ".debug", ".rela.debug", ".gcc_except_table.", ".data.rel.ro",
            ".rela.data.rel.ro",
            ".note.", ".llvm.", ".sdata", ".sbss", "__llvm", ".rela__llvm"
        ]
        return prefixes.contains { name.hasPrefix($0) }
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
