import Foundation
import RaceLabHarness
import TSanReports
import XCTest

@testable import RaceLabGrading

/// The binary check on every public member of the types an honest exercise uses most, listed by
/// the toolchain itself (swift-symbolgraph-extract) rather than picked by hand: the standard
/// library's collections and strings, and Foundation's Data, strings and formatters, Foundation's
/// extensions to them included. Each is allowed, but for Foundation's members that read or write
/// files, which are refused by name. A label shared with a file API (`append(contentsOf:)`) is no
/// file.
final class ExerciseAPIDeclarationsTests: XCTestCase {
    /// One member as the symbol graph declares it.
    struct Member: Sendable {
        /// The module that declares it (its extensions included): "FoundationEssentials".
        var module: String
        /// "Data.init(contentsOf:options:)", as the symbol graph writes its path.
        var path: String
        /// Its precise identifier as a symbol, demangled fully: what the check reads.
        var demangled: String
        /// The same symbol as the Swift runtime demangles it (the grader's own demangler).
        var runtime: String
    }

    /// Types whose members are listed, by the module that declares the type ("Foundation": any
    /// of its parts, FoundationEssentials' Data included).
    static let types: [String: Set<String>] = [
        "Swift": [
            "Array", "Set", "Dictionary", "String", "Substring", "StringProtocol", "Sequence", "Collection",
            "RangeReplaceableCollection"
        ],
        "Foundation": [
            "Data", "NSString", "NSArray", "NSDictionary", "Formatter", "NumberFormatter", "DateFormatter",
            "ISO8601DateFormatter", "DateComponentsFormatter", "DateIntervalFormatter", "ByteCountFormatter",
            "MeasurementFormatter", "ListFormatter", "RelativeDateTimeFormatter", "PersonNameComponentsFormatter"
        ]
    ]

    /// Modules whose symbol graphs are read (Foundation's parts declare the types and extend
    /// Swift's).
    static let modules = ["Swift", "FoundationEssentials", "Foundation", "FoundationInternationalization"]

    /// Foundation's members that read or write files: each must be refused, naming itself.
    /// Declaring module, path as the symbol graph writes it.
    static let fileMembers: Set<String> = [
        "FoundationEssentials Data.init(contentsOf:options:)",
        "FoundationEssentials Data.write(to:options:)",
        "Foundation String.init(contentsOf:)",
        "Foundation String.init(contentsOfFile:)",
        "FoundationEssentials String.init(contentsOf:encoding:)",
        "FoundationEssentials String.init(contentsOf:usedEncoding:)",
        "FoundationEssentials String.init(contentsOfFile:encoding:)",
        "FoundationEssentials String.init(contentsOfFile:usedEncoding:)",
        "FoundationEssentials StringProtocol.write(to:atomically:encoding:)",
        "FoundationEssentials StringProtocol.write(toFile:atomically:encoding:)",
        "Foundation StringProtocol.completePath(into:caseSensitive:matchesInto:filterTypes:)",
        "Foundation NSString.init(contentsOf:encoding:)",
        "Foundation NSString.init(contentsOf:usedEncoding:)",
        "Foundation NSString.init(contentsOfFile:encoding:)",
        "Foundation NSString.init(contentsOfFile:usedEncoding:)",
        "Foundation NSString.write(to:atomically:encoding:)",
        "Foundation NSString.write(toFile:atomically:encoding:)",
        "Foundation NSString.completePath(into:caseSensitive:matchesInto:filterTypes:)",
        "Foundation NSString.resolvingSymlinksInPath",
        "Foundation NSString.standardizingPath",
        "Foundation NSString.expandingTildeInPath",
        "Foundation NSArray.init(contentsOf:)",
        "Foundation NSArray.init(contentsOf:error:)",
        "Foundation NSArray.init(contentsOfFile:)",
        "Foundation NSArray.write(to:)",
        "Foundation NSArray.write(to:atomically:)",
        "Foundation NSArray.write(toFile:atomically:)",
        "Foundation NSDictionary.init(contentsOf:)",
        "Foundation NSDictionary.init(contentsOfFile:)",
        "Foundation NSDictionary.write(to:atomically:)",
        "Foundation NSDictionary.write(toFile:atomically:)"
    ]

    /// Refused though they touch no file: they take a URL's own types (URL is out of an
    /// exercise's reach altogether), which says so as the type.
    static let urlMembers: Set<String> = [
        "FoundationEssentials String.init(_:)"
    ]

    /// Every listed member, extracted and demangled once per test process (a few seconds).
    static let members: Result<[Member], any Error> = Result { try extractMembers() }

    func testEveryMemberOfEverydayTypesIsAllowedButFoundationsFileAccess() throws {
        #if !os(Linux)
            throw XCTSkip("the binary checks read ELF objects (Linux); elsewhere Foundation's members differ too")
        #endif
        let members = try Self.members.get()
        let own: Set<String> = ["ListAdderExercises", "ListAdder"]
        var refused: [String: [String]] = [:]
        var allowed = 0
        for member in members {
            // The grader reads the runtime's demangling ("Swift.Optional<Swift.String>" where
            // swift demangle writes "Swift.String?"): both must come to the same decision.
            let key = "\(member.module) \(member.path)"
            XCTAssertFalse(member.demangled.hasPrefix("$s"), "\(key) does not demangle")
            let reason = ExerciseAPI.refusal(of: member.demangled, ownModules: own)
            let runtimeReason = ExerciseAPI.refusal(of: member.runtime, ownModules: own)
            XCTAssertEqual(reason == nil, runtimeReason == nil, "\(key): \(member.demangled) / \(member.runtime)")
            if let reason, let runtimeReason {
                refused[key, default: []] += [reason, runtimeReason]
            } else {
                allowed += 1
            }
        }
        let expected = Self.fileMembers.union(Self.urlMembers)
        for (key, reasons) in refused.sorted(by: { $0.key < $1.key }) where !expected.contains(key) {
            XCTFail("\(key) is refused, but it touches no file: \(reasons)")
        }
        for key in Self.fileMembers.sorted() {
            guard let reasons = refused[key] else {
                let listed = members.contains { "\($0.module) \($0.path)" == key }
                XCTFail(
                    listed ? "\(key) is allowed: it is file access" : "\(key) is not listed (gone from Foundation?)")
                continue
            }
            // Named by its declaration, not by a word: "FoundationEssentials.Data.init(contentsOf:options:)".
            let path = String(key.split(separator: " ")[1])
            for reason in reasons {
                XCTAssertTrue(reason.contains(path), "\(key): \(reason)")
                XCTAssertTrue(reason.contains("files") || reason.contains("file system"), "\(key): \(reason)")
            }
        }
        XCTAssertEqual(Set(refused.keys), expected, "refused exactly Foundation's file access and URL's types")
        // The labels of the false refusals this check once made are no file.
        for key in [
            "Swift Array.append(contentsOf:)", "Swift RangeReplaceableCollection.append(contentsOf:)",
            "Swift RangeReplaceableCollection.insert(contentsOf:at:)", "Swift String.append(contentsOf:)",
            "Swift Substring.append(contentsOf:)", "FoundationEssentials Data.append(contentsOf:)",
            "Swift RangeReplaceableCollection.replaceSubrange(_:with:)"
        ] {
            XCTAssertTrue(members.contains { "\($0.module) \($0.path)" == key }, "\(key) is listed")
            XCTAssertNil(refused[key], key)
        }
        // Every listed type was read (swift-corelibs-foundation marks DateComponentsFormatter and
        // MeasurementFormatter unavailable, and has no ListFormatter or RelativeDateTimeFormatter).
        let types = Set(members.map { String($0.path.split(separator: ".")[0]) })
        XCTAssertTrue(
            types.isSuperset(of: ["Array", "Set", "Dictionary", "String", "Substring", "Sequence", "Collection"]),
            "\(types.sorted())")
        XCTAssertTrue(types.isSuperset(of: ["RangeReplaceableCollection", "Data", "NumberFormatter", "DateFormatter"]))
        XCTAssertGreaterThanOrEqual(members.count, 1_000)
        let refusedCount = refused.values.map(\.count).reduce(0, +) / 2
        XCTAssertEqual(allowed + refusedCount, members.count)
        print(
            "ExerciseAPIDeclarationsTests: \(members.count) members of \(types.count) types checked, "
                + "\(refusedCount) refused (\(refused.count) names)")
    }

    // MARK: Listing the members

    /// What a symbol graph file holds that is read here.
    struct Graph: Decodable {
        struct Symbol: Decodable {
            struct Identifier: Decodable { var precise: String }
            var identifier: Identifier
            var pathComponents: [String]
        }
        var symbols: [Symbol]
    }

    /// The public members of `types`, from each module's symbol graph (extensions of other
    /// modules' types included), demangled by `swift demangle` in one batch.
    static func extractMembers() throws -> [Member] {
        let extractor = try tool("swift-symbolgraph-extract")
        let demangler = try tool("swift-demangle")
        let swiftc = try tool("swiftc")
        // The target and the import paths of this toolchain's own modules (no SDK on Linux).
        let info = ToolProcess(executable: swiftc, arguments: ["-print-target-info"], timeout: 60, outputLimit: 1 << 20)
            .run()
        guard info.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any],
            let target = (object["target"] as? [String: Any])?["triple"] as? String,
            let imports = (object["paths"] as? [String: Any])?["runtimeLibraryImportPaths"] as? [String]
        else { throw XCTSkip("swiftc -print-target-info failed: \(info.output.prefix(300))") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "racelab-symbolgraph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var found: [(module: String, path: String, symbol: String)] = []
        for module in modules {
            let output = folder.appendingPathComponent(module)
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            let arguments =
                ["-module-name", module, "-target", target, "-minimum-access-level", "public"]
                + imports.flatMap { ["-I", $0] }
                + ["-module-cache-path", folder.appendingPathComponent("cache").path]
                // Default implementations are listed once, on the protocol (Sequence, Collection).
                + ["-skip-synthesized-members", "-output-dir", output.path]
            let run = ToolProcess(executable: extractor, arguments: arguments, timeout: 120, outputLimit: 1 << 20).run()
            guard run.status == 0 else {
                throw XCTSkip("swift-symbolgraph-extract -module-name \(module) failed: \(run.output.prefix(300))")
            }
            // M.symbols.json, and M@Other.symbols.json for M's extensions of Other's types.
            for name in try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
            where name.hasSuffix(".symbols.json") {
                let parts = name.dropLast(".symbols.json".count).split(separator: "@").map(String.init)
                let declaring = parts[0]
                let extended = parts.last ?? declaring
                let graph = try JSONDecoder().decode(
                    Graph.self, from: Data(contentsOf: output.appendingPathComponent(name)))
                let owner = extended.hasPrefix("Foundation") ? "Foundation" : extended
                for symbol in graph.symbols
                where symbol.pathComponents.count >= 2 && types[owner]?.contains(symbol.pathComponents[0]) == true
                    && symbol.identifier.precise.hasPrefix("s:")
                {
                    let symbolName = "$s" + symbol.identifier.precise.dropFirst(2)
                    found.append((declaring, symbol.pathComponents.joined(separator: "."), symbolName))
                }
            }
        }
        // One batch: each symbol an argument, each demangled name a line.
        let batch = ToolProcess(
            executable: demangler, arguments: ["--compact"] + found.map(\.symbol), timeout: 120, outputLimit: 64 << 20
        ).run()
        let lines = batch.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard batch.status == 0, lines.count >= found.count else {
            throw XCTSkip("swift-demangle failed (exit \(batch.status)): \(batch.output.prefix(300))")
        }
        return zip(found, lines).map { item, line in
            Member(
                module: item.module, path: item.path, demangled: line,
                runtime: SwiftDemangler.demangleFully(item.symbol))
        }
    }

    /// A tool of the toolchain: on PATH, or beside the swift that PATH finds (symbolic links followed).
    static func tool(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        var folders = path.split(separator: ":").map(String.init)
        for folder in folders {
            let swift = URL(fileURLWithPath: folder).appendingPathComponent("swift")
            if FileManager.default.isExecutableFile(atPath: swift.path) {
                folders.append(swift.resolvingSymlinksInPath().deletingLastPathComponent().path)
            }
        }
        for folder in folders {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw XCTSkip("\(name) is not on PATH nor beside swift: the toolchain's symbol graphs cannot be listed")
    }
}
