import Foundation
import XCTest

@testable import RaceLabGrading

/// The exercise checks: one test per rule (its own example must break exactly that rule), the
/// code-only view of a source, the lab code we ship passing, and the instructors' list in step.
final class ExercisePolicyTests: XCTestCase {
    var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    func testEverySourceRuleCatchesItsOwnExample() {
        let sourceRules = ExercisePolicy.rules.filter { $0.check == .source }
        XCTAssertGreaterThanOrEqual(sourceRules.count, 20)
        for rule in sourceRules {
            let example = rule.id == "import" ? "import Glibc" : rule.example
            XCTAssertFalse(example.isEmpty, "\(rule.id) has no example")
            let text = "import Foundation\n\n" + example + "\n"
            let found = ExercisePolicy.check(
                source: text, file: "Labs/ListAdder/Exercise.swift", labModule: "ListAdder")
            XCTAssertTrue(found.contains { $0.rule == rule.id && $0.line == 3 }, "\(rule.id): \(found)")
            let own = found.first { $0.rule == rule.id }
            XCTAssertEqual(own?.file, "Labs/ListAdder/Exercise.swift")
            XCTAssertTrue(
                own?.description.hasPrefix("Labs/ListAdder/Exercise.swift:3: ") == true, own?.description ?? "")
        }
    }

    func testTheMessageNamesFileLineAndConstruct() throws {
        let found = ExercisePolicy.check(
            source: "import Foundation\n@_silgen_name(\"__tsan_ignore_thread_begin\") func quiet()\n",
            file: "Labs/StaleResults/Exercise.swift", labModule: "StaleResults")
        let first = try XCTUnwrap(found.first { $0.rule == "silgen-name" })
        XCTAssertEqual(
            first.description,
            "Labs/StaleResults/Exercise.swift:2: @_silgen_name: " + ExercisePolicy.rule("silgen-name").why)
        XCTAssertTrue(
            found.contains { $0.rule == "tsan-call" && $0.construct == "__tsan_ignore_thread_begin" } == false,
            "the name inside the attribute's string is text, not code")
    }

    /// An attribute split from its `@` (spaces, a line break, a comment) is still that attribute.
    func testAnAttributeIsFoundHoweverItIsSpaced() {
        for spelling in [
            "@ _silgen_name(\"f\") func f()", "@\n_silgen_name(\"f\") func f()", "@/* hi */_silgen_name(\"f\") func f()"
        ] {
            let found = ExercisePolicy.check(
                source: "import Foundation\n" + spelling + "\n", file: "E.swift", labModule: "ListAdder")
            XCTAssertTrue(
                found.contains { $0.rule == "silgen-name" && $0.construct == "@_silgen_name" && $0.line == 2 },
                "\(spelling): \(found)")
        }
    }

    /// An exercise exports its factory and nothing else: a public name could stand in for the
    /// harness's (a lab's own type, in the catalog that registers the exercise).
    func testOnlyTheFactoryIsPublic() {
        let factory =
            "public func makeListAdderExercise(_ environment: ListAppEnvironment) -> ListAdderController { fatalError() }\n"
        XCTAssertEqual(ExercisePolicy.check(source: factory, file: "E.swift", labModule: "ListAdder"), [])
        for exported in [
            "public let ListAdderLab = 1", "public enum StandIn {}", "open class Shadow {}",
            "public(set) var total = 0",
            "package func helper() {}", "public\nlet split = 1", "@MainActor public final class Hidden {}"
        ] {
            let found = ExercisePolicy.check(source: exported + "\n", file: "E.swift", labModule: "ListAdder")
            XCTAssertEqual(found.map(\.rule), ["exported-name"], exported)
        }
        // The words as names or labels are no export.
        let ordinary =
            "enum Door { case open\n case closed }\nlet open = true\nfunc open() {}\nlet d = Door.open\nf(open: 1)\n"
        XCTAssertEqual(ExercisePolicy.check(source: ordinary, file: "E.swift", labModule: "ListAdder"), [])
    }

    func testCommentsAndStringTextAreNotCode() {
        let text = """
            import Foundation
            // exit(0) would end the child; dlsym is not needed either.
            /* nested /* FileHandle */ still a comment: setenv */
            let message = "do not call exit(0) or FileHandle here"
            let raw = #"no "Process()" here \\(either)"#
            let block = \"\"\"
                @_cdecl and __tsan_ mentioned in a multi-line string
                \"\"\"
            """
        XCTAssertEqual(ExercisePolicy.check(source: text, file: "E.swift", labModule: "L"), [])
    }

    func testCodeInsideAnInterpolationIsCode() {
        let text = "let s = \"total: \\(exit(0))\"\nlet r = #\"a \\#(setenv(\"A\", \"B\", 1)) b\"#\n"
        let rules = Set(ExercisePolicy.check(source: text, file: "E.swift", labModule: "L").map(\.rule))
        XCTAssertEqual(rules, ["exit", "environment"])
    }

    func testImportsOfTheLabItselfAndTheToolchainArePermitted() {
        let text =
            "import Foundation\nimport Dispatch\nimport Synchronization\nimport LabKit\nimport ListAdder\n@preconcurrency import Foundation\n"
        XCTAssertEqual(ExercisePolicy.check(source: text, file: "E.swift", labModule: "ListAdder"), [])
        let other = ExercisePolicy.check(
            source: "import StaleResults\nimport CRaceLabSupport\n", file: "E.swift", labModule: "ListAdder")
        XCTAssertEqual(other.map(\.construct), ["import StaleResults", "import CRaceLabSupport"])
    }

    /// Methods that share a name with a forbidden C function are not calls to it.
    func testMethodsNamedLikeCFunctionsPass() {
        let text = """
            import Foundation
            final class Card { func rename(to name: String) {}; func write(_ s: String) {}; func close() {} }
            let semaphore = DispatchSemaphore(value: 0)
            semaphore.signal()
            let card = Card(); card.write("x"); card.close()
            """
        XCTAssertEqual(ExercisePolicy.check(source: text, file: "E.swift", labModule: "L"), [])
    }

    /// Collection code whose argument labels a file API shares (`contentsOf:`, `with:`, `to: &`)
    /// passes the source checks and, compiled, the binary ones: what reads files is decided by
    /// what a compiled name is declared as, not by a word in the source.
    func testCollectionCodeWithFileLikeLabelsPasses() throws {
        let text = """
            import Foundation
            final class Roster {
                var names: [String] = []
                var list: [Int] = []
                var data = Data()
                var log = ""
                var tags: Set<String> = []
                var text = ""
                init() {}
                func merge(_ more: [String], _ x: [Int], _ bytes: [UInt8], _ word: Substring) {
                    names.append(contentsOf: more)
                    list.insert(contentsOf: x, at: 0)
                    list.replaceSubrange(0..<1, with: x)
                    data.append(contentsOf: bytes)
                    text.append(contentsOf: word)
                    tags.formUnion(more)
                    "done".write(to: &log)
                    print(names.count, to: &log)
                }
            }
            """
        XCTAssertEqual(ExercisePolicy.check(source: text, file: "E.swift", labModule: "ListAdder"), [])
        let object = try compile(text)
        XCTAssertEqual(ExercisePolicy.check(object: object, file: "E.o", module: "ListAdderExercises"), [])
    }

    /// Every Swift file of every lab (broken, exercise and the reference fixes) would pass as an
    /// exercise: the checks refuse nothing an honest fix needs.
    func testTheLabsOwnCodePassesTheSourceChecks() throws {
        let labs = packageRoot.appendingPathComponent("Labs")
        var checked = 0
        for folder in try FileManager.default.contentsOfDirectory(atPath: labs.path).sorted() {
            let files =
                (try? FileManager.default.contentsOfDirectory(atPath: labs.appendingPathComponent(folder).path)) ?? []
            for file in files where file.hasSuffix(".swift") && file != "Scenario.swift" {
                var text = try String(
                    contentsOf: labs.appendingPathComponent(folder).appendingPathComponent(file), encoding: .utf8)
                // A reference fix as an exercise: without the extension that registers it
                // (scripts/solve-kit.sh drops it the same way).
                text = text.replacingOccurrences(
                    of: #"(?ms)^extension [A-Za-z]*Lab \{$.*?^\}$"#, with: "", options: .regularExpression)
                XCTAssertEqual(ExercisePolicy.check(source: text, file: "\(folder)/\(file)", labModule: folder), [])
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 45)
    }

    /// docs/exercise-policy.md, the instructors' list, names every rule.
    func testTheInstructorsListNamesEveryRule() throws {
        let doc = try String(contentsOf: packageRoot.appendingPathComponent("docs/exercise-policy.md"), encoding: .utf8)
        for rule in ExercisePolicy.rules {
            XCTAssertTrue(doc.contains("`\(rule.id)`"), "docs/exercise-policy.md does not list \(rule.id)")
        }
        XCTAssertTrue(
            doc.contains(ExercisePolicy.markdownTable),
            "docs/exercise-policy.md holds `racelab policy --markdown` as it is now")
    }

    // MARK: Compiled code

    func testCFunctionAllowListAndCompilerSections() {
        for allowed in [
            "swift_retain", "__tsan_read8", "__tsan_func_entry", "pthread_mutex_lock", "dispatch_async_f", "usleep",
            "memcpy",
            "sqrt", "sem_wait"
        ] {
            XCTAssertTrue(ExercisePolicy.isAllowedC(allowed), allowed)
        }
        for refused in [
            "write", "dup2", "close", "setenv", "dlsym", "fork", "posix_spawn", "kill", "exit", "_exit", "abort",
            "__tsan_acquire", "__tsan_release", "AnnotateIgnoreReadsBegin", "__sanitizer_set_report_path",
            "rl_checkpoint_release",
            "mount", "syscall", "signal", "sigaction", "open", "fopen", "getenv",
            // Allowed only from where the compiler puts them (a deinit; SwiftShims' gettid).
            "__tsan_ignore_thread_begin", "__tsan_ignore_thread_end", "swift_getKeyPath"
        ] {
            XCTAssertFalse(ExercisePolicy.isAllowedC(refused), refused)
        }
        XCTAssertTrue(ExercisePolicy.isCompilerSection(".text.$s9ListAdder0aB8ExerciseC3addyySiF"))
        XCTAssertTrue(ExercisePolicy.isCompilerSection("swift5_typeref"))
        XCTAssertFalse(ExercisePolicy.isCompilerSection("racelab_hook"))
        XCTAssertTrue(ExercisePolicy.isLoadTimeSection(".init_array.0"))
        XCTAssertTrue(ExercisePolicy.isLoadTimeSection(".preinit_array"))
    }

    /// Real objects from snippets compiled here with TSan (as the exercise module would be): each
    /// attack is refused by the binary checks for what it compiled into, not for how it was
    /// spelled.
    func testCompiledAttacksAreRefused() throws {
        let cases: [(String, String, String)] = [
            (
                "foreign-definition",
                "@_cdecl(\"__tsan_default_options\") public func options() -> UnsafePointer<CChar>? { nil }",
                "__tsan_default_options"
            ),
            (
                "load-time-code",
                "@_section(\".init_array\") @_used let early: @convention(c) () -> Void = { print(\"before main\") }",
                ".init_array"
            ),
            ("custom-section", "@_section(\"racelab_hook\") @_used let marker: Int = 1", "racelab_hook"),
            ("c-call", "import Foundation\npublic func leak() { _ = dup2(1, 3) }", "dup2"),
            (
                "c-call",
                "import Foundation\n@_silgen_name(\"AnnotateIgnoreReadsBegin\") func ignore(_ f: UnsafePointer<CChar>?, _ l: Int32)\npublic func quiet() { ignore(nil, 0) }",
                "AnnotateIgnoreReadsBegin"
            ),
            (
                "c-call",
                "@_silgen_name(\"syscall\") func sys(_ number: Int) -> Int\npublic func raw() { _ = sys(39) }",
                "syscall"
            ),
            // TSan's ignore calls anywhere but in a deinit (where the compiler puts them) hide a race.
            (
                "c-call", "@_silgen_name(\"__tsan_ignore_thread_begin\") func quiet()\npublic func hide() { quiet() }",
                "__tsan_ignore_thread_begin"
            ),
            (
                "forbidden-api", "import Foundation\npublic func spawn() { let p = Process(); p.arguments = [] }",
                "Foundation.Process"
            ),
            (
                "forbidden-api", "import Foundation\npublic func note() { FileHandle.standardError.write(Data()) }",
                "Foundation.FileHandle"
            ),
            // Not on the allowed list: files through value types, reflection, the command line.
            (
                "forbidden-api",
                "import Foundation\npublic func read() -> Int { (try? String(contentsOfFile: \"/proc/self/auxv\", encoding: .utf8))?.count ?? 0 }",
                "contentsOfFile"
            ),
            // Foundation's file members, named by their declarations.
            (
                "forbidden-api",
                "import Foundation\npublic func read(_ u: URL) -> Int { (try? Data(contentsOf: u))?.count ?? 0 }",
                "Data.init(contentsOf:options:)"
            ),
            (
                "forbidden-api",
                "import Foundation\npublic func list() -> Int { NSArray(contentsOfFile: \"/etc/hosts\")?.count ?? 0 }",
                "Foundation.NSArray.init(contentsOfFile:) (reads or writes files)"
            ),
            (
                "forbidden-api",
                "import Foundation\npublic func keep() { try? \"x\".write(toFile: \"/tmp/x\", atomically: true, "
                    + "encoding: .utf8) }",
                "Swift.StringProtocol.write(toFile:atomically:encoding:)"
            ),
            (
                "forbidden-api",
                "import Foundation\npublic func peek(_ x: Any) -> Int { Mirror(reflecting: x).children.count }",
                "Swift.Mirror"
            ),
            ("forbidden-api", "public func args() -> Int { CommandLine.arguments.count }", "Swift.CommandLine"),
            (
                "forbidden-api",
                "import Foundation\npublic func pid() -> Int32 { ProcessInfo.processInfo.processIdentifier }",
                "ProcessInfo"
            ),
            ("forbidden-api", "import Foundation\npublic func log() { NSLog(\"x\") }", "Foundation.NSLog"),
            ("c-call", "import Foundation\npublic func harm() { _ = kill(getppid(), 9) }", "kill")
        ]
        for (rule, source, expected) in cases {
            let object = try compile(source)
            let found = ExercisePolicy.check(object: object, file: "E.o", module: "ListAdderExercises")
            XCTAssertTrue(
                found.contains { $0.rule == rule && $0.construct.contains(expected) }, "\(rule) / \(expected): \(found)"
            )
        }
        // An honest snippet with a lock, a queue, an atomic and a Mutex passes.
        let honest = try compile(
            """
            import Foundation
            import Synchronization
            public final class Counter: @unchecked Sendable {
                private let lock = NSLock(); private var value = 0
                private let queue = DispatchQueue(label: "q")
                private let atomic = Atomic<Int>(0)
                private let mutex = Mutex<Int>(0)
                public init() {}
                public func add() {
                    lock.withLock { value += 1 }
                    queue.sync { value += 1 }
                    atomic.add(1, ordering: .relaxed)
                    mutex.withLock { $0 += 1 }
                    DispatchQueue.concurrentPerform(iterations: 4) { _ in usleep(1) }
                }
                deinit { print("bye") }
            }
            // Foundation's threads, operations, run loops, notifications and formatting, Dispatch
            // timers and groups: all on the allowed list.
            public func worker() -> Thread {
                Thread { RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.01)) }
            }
            public final class Step: Operation {
                public override func main() { if isCancelled { return } }
            }
            public func everyday() -> String {
                let queue = OperationQueue(); queue.maxConcurrentOperationCount = 1
                queue.addOperation(Step()); queue.addOperation { }; queue.waitUntilAllOperationsAreFinished()
                let condition = NSCondition(); condition.lock(); condition.signal(); condition.unlock()
                NotificationCenter.default.post(name: Notification.Name("x"), object: nil)
                let group = DispatchGroup(); group.enter(); group.leave(); group.wait()
                let timer = DispatchSource.makeTimerSource(); timer.cancel()
                let formatter = NumberFormatter(); formatter.numberStyle = .decimal
                let json = (try? JSONEncoder().encode([1, 2])).map { String(decoding: $0, as: UTF8.self) } ?? ""
                return String(format: "%d items", 3) + (formatter.string(from: 1234) ?? "") + json + UUID().uuidString
            }
            """)
        XCTAssertEqual(ExercisePolicy.check(object: honest, file: "E.o", module: "ListAdderExercises"), [])
    }

    /// A finding in the compiled code is shown at the source line that names what it refers to.
    func testACompiledFindingIsPlacedAtTheLineThatNamesIt() {
        let sources = [
            (
                file: "Labs/ListAdder/Exercise.swift",
                code: "import Foundation\nlet a = 1\nlet d = try? Data(contentsOf: u)\n_ = kill(1, 9)\n"
            )
        ]
        func finding(_ construct: String) -> PolicyViolation {
            PolicyViolation(
                rule: "forbidden-api", file: "ListAdderExercises/Exercise.swift.o", line: nil, construct: construct,
                why: "w")
        }
        let files = ExerciseChecks.locate(finding("contentsOf (reads or writes files)"), in: sources)
        XCTAssertEqual(files.description, "Labs/ListAdder/Exercise.swift:3: contentsOf (reads or writes files): w")
        // A member named by its declaration: at the line with its type and its first label, not
        // at one merely naming the type or using the label on a collection.
        let collection = [
            (
                file: "Labs/ListAdder/Exercise.swift",
                code: "import Foundation\nvar buffer = Data()\nnames.append(contentsOf: more)\n"
                    + "let d = try? Data(contentsOf: u)\n"
            )
        ]
        XCTAssertEqual(
            ExerciseChecks.locate(
                finding("FoundationEssentials.Data.init(contentsOf:options:) (reads or writes files)"), in: collection
            ).line, 4)
        XCTAssertEqual(ExerciseChecks.locate(finding("a call to kill"), in: sources).line, 4)
        XCTAssertEqual(ExerciseChecks.locate(finding("Foundation.Data.init(contentsOf:) (files)"), in: sources).line, 3)
        XCTAssertEqual(
            ExerciseChecks.locate(finding("a call to dup2"), in: sources), finding("a call to dup2"),
            "not named in the source: left as found")
    }

    func compile(_ source: String) throws -> ObjectFile {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "racelab-policy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Exercise.swift")
        try Data(source.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-c", "-sanitize=thread", "-Onone", "-parse-as-library", "-module-name", "ListAdderExercises",
            "-swift-version", "5", file.path, "-o", folder.appendingPathComponent("Exercise.o").path
        ]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, message)
        return try ObjectFile(contentsOf: folder.appendingPathComponent("Exercise.o"))
    }
}
