import Foundation

/// What an exercise's compiled code may name, Swift side, as a list of what is allowed: its own
/// lab's module, LabKit's public API, the standard library, Dispatch and Synchronization (less a
/// few named exceptions), and from Foundation only the types listed here: threads, operations
/// and queues, locks and conditions, run loops, notifications, values, collections, strings and
/// formatting. Anything else a symbol names (a module, a Foundation type, a member that reaches
/// files or processes) is refused, with what it is. C functions have a list of their own
/// (`ExercisePolicy.allowedCFunctions`).
///
/// The check reads each Swift symbol the compiled exercise refers to, demangled: the entity it
/// names ("Foundation.Data.init(contentsOf:options:)"), which module and type that entity
/// belongs to, and, for an allowed type, whether the member and its signature reach outside
/// the process (URLs, file paths, streams, processes).
public enum ExerciseAPI {
    /// Foundation's part an exercise may use (its types and functions, by name; also when the
    /// toolchain declares them in FoundationEssentials or FoundationInternationalization).
    public static let foundation: Set<String> = [
        // Threads, operations, queues, locks, conditions, run loops, timers, notifications.
        "Thread", "Operation", "BlockOperation", "OperationQueue", "QualityOfService", "NSLock", "NSRecursiveLock",
        "NSCondition", "NSConditionLock", "NSLocking", "RunLoop", "Timer", "NotificationCenter", "Notification",
        "NSNotification", "NotificationQueue", "NSObject", "NSObjectProtocol", "NSCopying", "NSMutableCopying",
        // Time and values.
        "Date", "DateInterval", "DateComponents", "Calendar", "TimeZone", "Locale", "UUID", "Data", "Decimal",
        "NSNumber", "NSValue", "NSNull", "NSDecimalNumber", "NSError", "CocoaError", "LocalizedError", "CustomNSError",
        "Measurement", "Unit", "Dimension", "UnitDuration", "Progress", "ComparisonResult", "SortDescriptor",
        // Strings, text and formatting.
        "NSString", "CharacterSet", "AttributedString", "NSAttributedString", "Scanner", "NSRegularExpression",
        "NSTextCheckingResult", "NSRange", "_NSRange", "NSMakeRange", "NSLocalizedString", "Formatter",
        "NumberFormatter", "DateFormatter",
        "ISO8601DateFormatter", "DateComponentsFormatter", "DateIntervalFormatter", "ByteCountFormatter",
        "MeasurementFormatter",
        "ListFormatter", "RelativeDateTimeFormatter", "PersonNameComponents", "PersonNameComponentsFormatter",
        "FormatStyle",
        "IntegerFormatStyle", "FloatingPointFormatStyle", "DecimalFormatStyle", "StringStyle", "ParseableFormatStyle",
        // Collections and coding.
        // (Not Foundation's mutable collections, NSMutableArray and the like: their insides are
        // not instrumented, so ThreadSanitizer would never see a race on one.)
        "IndexSet", "IndexPath", "NSIndexSet", "NSArray", "NSDictionary", "NSSet", "NSOrderedSet", "NSCache",
        "NSSortDescriptor", "JSONEncoder", "JSONDecoder", "PropertyListEncoder", "PropertyListDecoder",
        "PropertyListSerialization"
    ]

    /// Modules whose whole API is open to an exercise, but for the names in `closed`.
    public static let openModules: Set<String> = [
        "Swift", "_Concurrency", "Dispatch", "Synchronization", "_StringProcessing", "__C", "Builtin"
    ]

    /// Names inside an open module that an exercise may not use, with why.
    public static let closed: [String: [String: String]] = [
        "Swift": [
            "CommandLine": "the command line the harness started the child with",
            "Mirror": "reflection: it reads other objects' private state (the harness's included)",
            "_typeByName": "finds a type by its name at run time",
            "_getTypeByMangledNameInContext": "finds a type by its name at run time",
            "_openExistential": "a compiler internal",
            "KeyPath": keyPathWhy,
            "WritableKeyPath": keyPathWhy,
            "ReferenceWritableKeyPath": keyPathWhy,
            "PartialKeyPath": keyPathWhy,
            "AnyKeyPath": keyPathWhy
        ],
        "Dispatch": [
            "DispatchIO": "reads and writes file descriptors",
            "DispatchSourceRead": "watches a file descriptor", "DispatchSourceWrite": "watches a file descriptor",
            "DispatchSourceProcess": "watches another process", "DispatchSourceSignal": "catches signals",
            "DispatchSourceFileSystemObject": "watches files"
        ]
    ]

    /// Members and words of a signature that reach outside the process, in any allowed type
    /// ("Data.init(contentsOf:)", "String.write(toFile:)"), with why.
    static let outsideWords: [(pattern: String, why: String)] = [
        (
            #"\b(contentsOf|contentsOfFile|contentsOfURL|toFile|atPath|fileURLWithPath|toURL|fileDescriptor|fileHandle)\b"#,
            "reads or writes files"
        ),
        (#"\b(write|writeToFile|writeToURL)\s*\(\s*to\b"#, "writes files"),
        (
            #"\bFoundation(?:Essentials)?\.(URL|NSURL|URLComponents|URLRequest|URLSession\w*|FileManager|FileHandle|NSFileHandle|FileWrapper|InputStream|OutputStream|Stream|Pipe|Process|ProcessInfo|Bundle|Host|Port|SocketPort|MessagePort)\b"#,
            "files, URLs, streams, processes and the environment are out of an exercise's reach"
        ),
        (#"\bFoundation\.Thread\.exit\b"#, "ends a thread in the middle of the scenario's work"),
        (
            #"\bDispatch\.DispatchSource\.make(Read|Write|Process|Signal|FileSystemObject)Source\b"#,
            "watches descriptors, processes, signals or files"
        )
    ]

    static let keyPathWhy =
        "key paths read and write through the Swift runtime, where ThreadSanitizer cannot see a race"

    /// Why well-known refused names are refused (the rest: not on the list).
    static let knownRefusals: [String: String] = [
        "URL": "files and URLs", "NSURL": "files and URLs", "FileManager": "files", "FileHandle": "file descriptors",
        "NSFileHandle": "file descriptors", "Pipe": "file descriptors", "Process": "other processes",
        "NSTask": "other processes",
        "ProcessInfo": "the environment and the process's own details", "Bundle": "loads code and files",
        "NSClassFromString": "finds a class by its name at run time", "NSLog": "writes to the harness's standard error",
        "URLSession": "the network", "Host": "the network", "Port": "inter-process messages",
        "InputStream": "files and sockets",
        "OutputStream": "files and sockets", "NSHomeDirectory": "files", "NSTemporaryDirectory": "files",
        "NSUserName": "the environment",
        "JSONSerialization": "reads and writes streams", "UserDefaults": "files", "NSKeyedArchiver": "writes files",
        "NSMutableArray":
            "its insides are not instrumented: ThreadSanitizer would not see a race on it (use a Swift array)",
        "NSMutableDictionary":
            "its insides are not instrumented: ThreadSanitizer would not see a race on it (use a Swift dictionary)",
        "NSMutableSet":
            "its insides are not instrumented: ThreadSanitizer would not see a race on it (use a Swift set)",
        "NSMutableString":
            "its insides are not instrumented: ThreadSanitizer would not see a race on it (use a Swift string)",
        "NSCountedSet": "its insides are not instrumented: ThreadSanitizer would not see a race on it",
        "NSMutableOrderedSet": "its insides are not instrumented: ThreadSanitizer would not see a race on it",
        "NSHashTable": "its insides are not instrumented: ThreadSanitizer would not see a race on it",
        "NSMapTable": "its insides are not instrumented: ThreadSanitizer would not see a race on it"
    ]

    /// Types of LabKit that are the harness's, not part of what an exercise is handed (most are
    /// `@_spi(LabAuthoring)` and so not even visible to an exercise's compiler).
    public static let harnessOnlyLabKit: Set<String> = [
        "Checkpoint", "DeallocationLog", "MainThreadChecker", "ScenarioDriver", "ScenarioRun", "ScenarioPlan",
        "ScenarioOutcome",
        "ScriptedPause", "TraceFile", "TraceRecorder", "ThreadHold", "SlowWork", "PlayableLab",
        "PlayableLabRegistry", "ExplorationPoint", "ExplorationShard", "LabSolutions"
    ]

    /// One entity a symbol names: "Foundation.Data.init(contentsOf: ...)" is module Foundation,
    /// type path ["Data", "init"], and the rest "(contentsOf: ...)".
    struct Entity: Equatable {
        var module: String
        var path: [String]
        /// Whatever follows the dotted path (member names in parentheses, the signature).
        var rest: String
        /// "(extension in Foundation):Swift.String.init(format:...)": Foundation.
        var extensionModule: String?
    }

    /// Why the symbol (demangled fully) is refused, naming what it reaches; nil when allowed.
    /// `ownModules`: the exercise's own module and its lab's.
    public static func refusal(of demangled: String, ownModules: Set<String>) -> String? {
        for entity in entities(in: demangled) {
            if let reason = refusal(of: entity, ownModules: ownModules) { return reason }
        }
        for (pattern, why) in outsideWords {
            if let range = demangled.range(of: pattern, options: .regularExpression) {
                return "\(demangled[range]) (\(why))"
            }
        }
        return nil
    }

    static func refusal(of entity: Entity, ownModules: Set<String>) -> String? {
        for module in [entity.module] + (entity.extensionModule.map { [$0] } ?? [])
        where !isKnown(module, ownModules: ownModules) {
            return
                "the module \(module) (an exercise may use only Foundation, Dispatch, Synchronization, the standard library, LabKit and its own lab)"
        }
        guard let name = entity.path.first else { return nil }
        let qualified = "\(entity.module).\(name)"
        if ownModules.contains(entity.module) { return nil }
        if entity.module == "LabKit" {
            return harnessOnlyLabKit.contains(name) ? "\(qualified) (the harness's own part of LabKit)" : nil
        }
        if isFoundation(entity.module) {
            if foundation.contains(name) { return nil }
            return "\(qualified) (\(knownRefusals[name] ?? "not on the list of Foundation an exercise may use"))"
        }
        if let why = closed[entity.module == "_Concurrency" ? "Swift" : entity.module]?[name] {
            return "\(qualified) (\(why))"
        }
        if entity.module == "Swift", name.contains("KeyPath") { return "\(qualified) (\(keyPathWhy))" }
        return nil
    }

    static func isFoundation(_ module: String) -> Bool {
        ["Foundation", "FoundationEssentials", "FoundationInternationalization"].contains(module)
    }

    static func isKnown(_ module: String, ownModules: Set<String>) -> Bool {
        ownModules.contains(module) || module == "LabKit" || openModules.contains(module) || isFoundation(module)
    }

    // MARK: Reading a demangled name

    /// The entities a demangled symbol names: the one it is about ("type metadata accessor for
    /// X" names X), and for a conformance both the type and the protocol ("X : P in M").
    static func entities(in demangled: String) -> [Entity] {
        var text = Substring(demangled)
        var phrases = ""
        // Descriptions the demangler puts in front: "protocol witness table for ", "static ", ...
        while true {
            if let word = ["static ", "class ", "merged ", "@objc "].first(where: { text.hasPrefix($0) }) {
                text = text.dropFirst(word.count)
                continue
            }
            guard let first = text.first, first.isLowercase,
                let cut = [" for ", " of "].compactMap({ text.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }
                )
            else { break }
            phrases += text[..<cut.upperBound]
            text = text[cut.upperBound...]
        }
        var found: [Entity] = []
        if let entity = entity(at: text) { found.append(entity) }
        // A conformance, "X : P in M": the protocol P too (elsewhere " : " starts a type).
        if phrases.contains("conformance") || phrases.contains("witness table"),
            let match = text.firstMatch(of: #/ : ([\w.]+) in [\w]+$/#), let entity = entity(at: match.1)
        {
            found.append(entity)
        }
        return found
    }

    /// The dotted path at the start of `text`, after an optional "(extension in M):".
    static func entity(at text: Substring) -> Entity? {
        var text = text
        var extensionModule: String?
        if text.hasPrefix("(extension in "), let close = text.firstIndex(of: ")") {
            extensionModule = String(text[text.index(text.startIndex, offsetBy: 14)..<close])
            text = text[text.index(after: close)...]
            if text.hasPrefix(":") { text = text.dropFirst() }
        }
        var parts: [String] = []
        var current = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "_" || character.isLetter || character.isNumber {
                current.append(character)
            } else if character == ".", !current.isEmpty {
                parts.append(current)
                current = ""
            } else {
                break
            }
            index = text.index(after: index)
        }
        if !current.isEmpty { parts.append(current) }
        // A lone name ("Any", "A", "AnyObject") is no module's entity.
        guard parts.count >= 2, let module = parts.first, module.first.map({ $0.isLetter || $0 == "_" }) == true else {
            return nil
        }
        return Entity(
            module: module, path: Array(parts.dropFirst()), rest: String(text[index...]),
            extensionModule: extensionModule)
    }
}
