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

    /// Foundation's types that reach outside the process: files, URLs, streams, other processes,
    /// the environment. A member Foundation declares with one in its signature is refused as
    /// that member ("FoundationEssentials.Data.write(to:options:)"); any other symbol that names
    /// one (a generic specialization on URL) as the type.
    static let outsideTypes =
        #"\bFoundation(?:Essentials)?\.(URL|NSURL|URLComponents|URLRequest|URLSession\w*|FileManager|FileHandle|"#
        + #"NSFileHandle|FileWrapper|InputStream|OutputStream|Stream|Pipe|Process|ProcessInfo|Bundle|Host|Port|"#
        + #"SocketPort|MessagePort)\b"#

    /// Those of `outsideTypes` that are files, URLs and streams (the others: processes, the
    /// environment, ports).
    static let fileTypes: Set<String> = [
        "URL", "NSURL", "URLComponents", "URLRequest", "FileManager", "FileHandle", "NSFileHandle", "FileWrapper",
        "InputStream", "OutputStream", "Stream", "Pipe"
    ]

    static let outsideTypesWhy = "files, URLs, streams, processes and the environment are out of an exercise's reach"

    /// Argument labels by which Foundation's members take a file's path or a descriptor as a
    /// plain value (`String(contentsOfFile:encoding:)`, `NSArray.write(toFile:atomically:)`),
    /// with what such a member does. Only a member Foundation declares is read this way: the
    /// standard library's `append(contentsOf:)` is no file, nor is Data's `append(contentsOf:)`.
    static let pathLabels: [String: String] = [
        "contentsOfFile": "reads or writes files", "toFile": "reads or writes files", "atPath": "reads or writes files",
        "contentsOfURL": "reads or writes files", "toURL": "reads or writes files",
        "fileURLWithPath": "reads or writes files", "fileDescriptor": "reads or writes file descriptors",
        "fileHandle": "reads or writes file descriptors"
    ]

    /// Foundation's members that take their receiver for a path and read the file system for it
    /// (directories, symbolic links, the user database for "~"), by type and member: no label
    /// or type of theirs says so.
    static let receiverPathMembers: [String: Set<String>] = [
        "NSString": ["completePath", "resolvingSymlinksInPath", "standardizingPath", "expandingTildeInPath"],
        "StringProtocol": ["completePath"]
    ]

    /// Members of allowed types that an exercise may not call, by their qualified names, with why.
    static let closedMembers: [(pattern: String, why: String)] = [
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
        "ScenarioOutcome", "StoryProfile", "HarnessTime",
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
        let found = entities(in: demangled)
        for entity in found {
            if let reason = refusal(of: entity, ownModules: ownModules) { return reason }
        }
        for entity in found {
            if let reason = outsideRefusal(of: entity) { return reason }
        }
        if let range = demangled.range(of: outsideTypes, options: .regularExpression) {
            return "\(demangled[range]) (\(outsideTypesWhy))"
        }
        for (pattern, why) in closedMembers {
            if let range = demangled.range(of: pattern, options: .regularExpression) {
                return "\(demangled[range]) (\(why))"
            }
        }
        return nil
    }

    /// Why a member that Foundation declares reaches outside the process, named by its
    /// declaration ("FoundationEssentials.Data.init(contentsOf:options:) (reads or writes
    /// files: ...)"); nil for anything else. Decided by what the member is, where it is declared
    /// and what its signature takes, never by a word anywhere in the name: the same label on the
    /// standard library's members (`Array.append(contentsOf:)`) or on Foundation's in-memory ones
    /// (`Data.append(contentsOf: [UInt8])`) is no file.
    static func outsideRefusal(of entity: Entity) -> String? {
        guard isFoundation(entity.module) || entity.extensionModule.map(isFoundation) == true else { return nil }
        let labels = argumentLabels(in: entity.rest)
        if let label = labels?.first(where: { pathLabels[$0] != nil }), let why = pathLabels[label] {
            return "\(declaration(of: entity, labels: labels)) (\(why))"
        }
        if entity.path.count >= 2, receiverPathMembers[entity.path[0]]?.contains(entity.path[1]) == true {
            return "\(declaration(of: entity, labels: labels)) (reads the file system)"
        }
        if let range = entity.rest.range(of: outsideTypes + #"(?:\.\w+)*"#, options: .regularExpression) {
            // The whole type: "FoundationEssentials.URL.Template.VariableName" is URL's, no file.
            let type = String(entity.rest[range])
            let name = type.split(separator: ".").last.map(String.init) ?? type
            let declared = declaration(of: entity, labels: labels)
            return fileTypes.contains(name) && type.split(separator: ".").count == 2
                ? "\(declared) (reads or writes files, URLs or streams: its signature names \(type))"
                : "\(declared) (its signature names \(type): \(outsideTypesWhy))"
        }
        return nil
    }

    /// A member as its declaration names it: "FoundationEssentials.Data.init(contentsOf:options:)",
    /// "Swift.String.init(contentsOfFile:encoding:) from FoundationEssentials" (an extension).
    static func declaration(of entity: Entity, labels: [String]?) -> String {
        let path = entity.path.map { $0 == "__allocating_init" ? "init" : $0 }
        var name = ([entity.module] + path).joined(separator: ".")
        if let labels { name += "(" + labels.map { $0 + ":" }.joined() + ")" }
        if let module = entity.extensionModule, module != entity.module { name += " from \(module)" }
        return name
    }

    /// The argument labels of the member whose signature `rest` is ("<A where ...>(contentsOf:
    /// __owned A1, at: A.Index) -> ()": contentsOf, at; "_" for an unlabelled parameter); nil
    /// when it has no parameter list (a getter, a type).
    static func argumentLabels(in rest: String) -> [String]? {
        var characters = Substring(rest)
        if characters.hasPrefix("<") {
            guard let end = closing(of: characters) else { return nil }
            characters = characters[characters.index(after: end)...]
        }
        guard characters.hasPrefix("("), let end = closing(of: characters) else { return nil }
        let list = characters[characters.index(after: characters.startIndex)..<end]
        var parameters: [Substring] = []
        var start = list.startIndex
        walkBrackets(list) { index, character, depth in
            if character == ",", depth == 0 {
                parameters.append(list[start..<index])
                start = list.index(after: index)
            }
            return true
        }
        if !list.trimmingCharacters(in: .whitespaces).isEmpty { parameters.append(list[start...]) }
        return parameters.map { parameter in
            let text = parameter.drop { $0 == " " }
            guard let match = text.prefixMatch(of: #/([A-Za-z_][A-Za-z0-9_]*): /#) else { return "_" }
            return String(match.1)
        }
    }

    /// Where the bracket `text` starts with ("<", "(" or "[") closes, nested brackets and the
    /// arrows of function types ("->") skipped; nil when it does not.
    static func closing(of text: Substring) -> Substring.Index? {
        var found: Substring.Index?
        walkBrackets(text) { index, character, depth in
            if ")]>".contains(character), depth == 0 { found = index }
            return found == nil
        }
        return found
    }

    /// Calls `visit` with each character of `text`, its index and the bracket depth there (an
    /// opening bracket counted from itself on, a closing one up to itself), the arrows of function
    /// types ("->") skipped, until `visit` says stop (false). The one bracket walk of this file.
    static func walkBrackets(_ text: Substring, _ visit: (Substring.Index, Character, Int) -> Bool) {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "-", text[text.index(after: index)...].hasPrefix(">") {
                index = text.index(index, offsetBy: 2)
                continue
            }
            if "([<".contains(character) { depth += 1 }
            if ")]>".contains(character) { depth -= 1 }
            if !visit(index, character, depth) { return }
            index = text.index(after: index)
        }
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
            guard let first = text.first, first.isLowercase, let cut = phraseEnd(in: text) else { break }
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

    /// Where the first " for " or " of " of a description ends ("generic specialization <...> of "),
    /// outside brackets: what a specialization is made on can be described too ("closure #1 in
    /// variable initialization expression of ...").
    static func phraseEnd(in text: Substring) -> Range<Substring.Index>? {
        var found: Range<Substring.Index>?
        walkBrackets(text) { index, character, depth in
            guard depth == 0, character == " " else { return true }
            for phrase in [" for ", " of "] where text[index...].hasPrefix(phrase) {
                found = index..<text.index(index, offsetBy: phrase.count)
            }
            return found == nil
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
