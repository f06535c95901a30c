import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// The list of every file a student kit was shipped with and its SHA-256, written by
/// `racelab export` next to the kit's Package.swift. Grading compares a submission against it:
/// only the exercise files (`editable`) may differ.
public struct KitManifest: Codable, Sendable, Equatable {
    public static let fileName = "racelab-kit.json"
    /// The folders a kit is made of, besides the files at the package's top level.
    public static let directories = ["Sources", "Labs", "Tests", "Grading", "scripts", "docs"]

    public var format = 1
    public var createdAt: String
    /// Relative path ("Labs/ListAdder/Exercise.swift") to SHA-256 (hex), for every shipped file.
    public var files: [String: String]
    /// The exercise files: a student may change these and nothing else.
    public var editable: [String]

    public init(createdAt: String = ISO8601DateFormatter().string(from: Date()), files: [String: String]) {
        self.createdAt = createdAt
        self.files = files
        self.editable = files.keys.filter(Self.isExercise).sorted()
    }

    /// One hash for the whole manifest (files and editable list), to compare two manifests.
    public var digest: String {
        var hasher = SHA256()
        for path in files.keys.sorted() { hasher.update("\(path) \(files[path]!)\n") }
        for path in editable { hasher.update("editable \(path)\n") }
        return SHA256.hexString(hasher.finalize())
    }

    /// `Labs/<Lab>/Exercise*.swift`: what a student edits.
    public static func isExercise(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count == 3 && parts[0] == "Labs" && parts[2].hasPrefix("Exercise") && parts[2].hasSuffix(".swift")
    }

    /// The reference solutions, left out of a kit: `Labs/<Lab>/Fixed*.swift`, the catalog that
    /// registers them (`Sources/SolutionCatalog/`), and the grading corpus of fixes
    /// (`Tests/GradingCorpus/`, `Sources/CorpusCatalog/`).
    public static func isSolution(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        if parts.count == 3 && parts[0] == "Labs" && parts[2].hasPrefix("Fixed") && parts[2].hasSuffix(".swift") {
            return true
        }
        return path.hasPrefix("Sources/SolutionCatalog/") || path.hasPrefix("Sources/CorpusCatalog/")
            || path.hasPrefix("Tests/GradingCorpus/")
    }

    // MARK: Files on disk

    /// Every file of the package under `root` that a kit is made of, relative paths, sorted:
    /// the non-hidden files at the top level (not the manifest itself) and everything non-hidden
    /// under `directories`. Hidden files (editor swap files, .DS_Store) and `.build` are ignored
    /// (SwiftPM ignores hidden files too).
    public static func packageFiles(under root: URL) -> [String] {
        let fileManager = FileManager.default
        var paths: [String] = []
        let top = (try? fileManager.contentsOfDirectory(atPath: root.path)) ?? []
        for name in top.sorted() where !name.hasPrefix(".") && name != fileName {
            if isRegularFile(root.appendingPathComponent(name)) { paths.append(name) }
        }
        for directory in directories {
            paths += files(in: root.appendingPathComponent(directory), relativeTo: directory)
        }
        return paths.sorted()
    }

    private static func files(in directory: URL, relativeTo prefix: String) -> [String] {
        let fileManager = FileManager.default
        guard let names = try? fileManager.contentsOfDirectory(atPath: directory.path) else { return [] }
        var out: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                out += files(in: url, relativeTo: prefix + "/" + name)
            } else {
                out.append(prefix + "/" + name)
            }
        }
        return out
    }

    private static func isRegularFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// Hashes of `paths` under `root` (unreadable files are left out).
    public static func hashes(of paths: [String], under root: URL) -> [String: String] {
        var out: [String: String] = [:]
        for path in paths {
            if let hash = SHA256.hex(fileAt: root.appendingPathComponent(path)) { out[path] = hash }
        }
        return out
    }

    /// The lab folders the kit's exercises are in ("ListAdder"), sorted.
    public var labFolders: [String] {
        Set(
            editable.compactMap { path -> String? in
                let parts = path.split(separator: "/")
                return parts.count >= 3 && parts[0] == "Labs" ? String(parts[1]) : nil
            }
        ).sorted()
    }

    /// A lab's id from its folder's name, as the labs are named: "ListAdder" -> "list-adder",
    /// "UIOffMain" -> "ui-off-main" (a capital starts a word after a small letter, or before one).
    public static func labID(folder: String) -> String {
        let letters = Array(folder)
        var id = ""
        for (index, letter) in letters.enumerated() {
            if letter.isUppercase, index > 0,
                letters[index - 1].isLowercase || letters[index - 1].isNumber
                    || (index + 1 < letters.count && letters[index + 1].isLowercase && letters[index - 1].isUppercase)
            {
                id += "-"
            }
            id += letter.lowercased()
        }
        return id
    }

    // MARK: Reading and writing

    public static func read(from url: URL) throws -> KitManifest {
        try JSONDecoder().decode(KitManifest.self, from: Data(contentsOf: url))
    }

    /// The manifest of the package at `root`, nil when it has none (not a kit).
    public static func read(packageAt root: URL) -> KitManifest? {
        try? read(from: root.appendingPathComponent(fileName))
    }

    public func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: url)
    }
}
