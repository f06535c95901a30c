import Foundation
import LabKit
import RaceLabHarness

/// The files of one lab that one Swift 6 check compiles, as Package.swift groups them:
///   broken    Broken*.swift    (in the build, module <Folder> with Scenario.swift)
///   exercise  Exercise*.swift  (module <Folder>Exercises)
///   fixed     Fixed*.swift     (module <Folder>Solutions), but for:
///   swift6    FixedSwift6*.swift  (module <Folder>Swift6Solutions, built in Swift 6 mode)
/// Each is compiled as a module of its own against the lab module <Folder> as built (Swift 5
/// mode): the lesson is in these files, while Scenario.swift is the harness's side of the lab.
public struct LabModuleSources: Sendable, Equatable {
    public let lab: String
    public let part: LabPart
    /// The lab's folder (`Labs/<Folder>`); its name is the lab module's name.
    public let folder: URL
    /// The part's file names, sorted.
    public let files: [String]

    /// The parts a lab can be checked in.
    public static let parts: [LabPart] = LabPart.allCases

    /// nil when `part` is not one of `parts` or the folder holds no file of it.
    public init?(lab: String, folder: URL, part: LabPart) {
        guard Self.parts.contains(part) else { return nil }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let files = names.filter { Self.belongs($0, to: part) }.sorted()
        guard !files.isEmpty else { return nil }
        self.lab = lab
        self.part = part
        self.folder = folder
        self.files = files
    }

    public init?(_ lab: Lab, part: LabPart) {
        self.init(lab: lab.id, folder: lab.info.folder, part: part)
    }

    /// Whether a file of the lab folder is one of `part`'s, as Package.swift sorts them.
    static func belongs(_ name: String, to part: LabPart) -> Bool {
        guard name.hasSuffix(".swift") else { return false }
        switch part {
        case .broken: return name.hasPrefix("Broken")
        case .exercise: return name.hasPrefix("Exercise")
        case .fixed: return name.hasPrefix("Fixed") && !name.hasPrefix("FixedSwift6")
        case .swift6: return name.hasPrefix("FixedSwift6")
        }
    }

    /// The lab module the part is compiled against.
    public var labModule: String { folder.lastPathComponent }

    /// The module the check compiles (never the lab module itself, which it imports).
    public var moduleName: String {
        switch part {
        case .broken: labModule + "Broken"
        case .exercise: labModule + "Exercises"
        case .fixed: labModule + "Solutions"
        case .swift6: labModule + "Swift6Solutions"
        }
    }

    public var urls: [URL] { files.map { folder.appendingPathComponent($0) } }

    /// "Labs/ListAdder/Broken.swift": paths as the package names them.
    public var relativePaths: [String] { files.map { "Labs/\(labModule)/\($0)" } }

    /// What tells swiftc how this module differs from the others, as Package.swift sets it up.
    var moduleArguments: [String] {
        switch part {
        case .broken:
            // Broken*.swift shares its module with Scenario.swift in the build, so it has no
            // `import` of the lab: give it one.
            ["-Xfrontend", "-import-module", "-Xfrontend", labModule]
        case .exercise:
            ["-enable-upcoming-feature", "MemberImportVisibility"]
        default:
            []
        }
    }

    /// SHA-256 over Scenario.swift (the lab's interface the part compiles against) and the
    /// part's files: a measurement is shown only while they are unchanged. nil when a file
    /// cannot be read.
    public var digest: String? {
        var hasher = SHA256()
        for name in ["Scenario.swift"] + files {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { return nil }
            hasher.update(Array("\(name)\n".utf8) + Array(data))
        }
        return SHA256.hexString(hasher.finalize())
    }

    /// The lab's files the lab module was built from (Scenario.swift, Broken*.swift), to tell
    /// whether the build is older than the sources.
    var labModuleFiles: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0 == "Scenario.swift" || ($0.hasPrefix("Broken") && $0.hasSuffix(".swift")) }
            .sorted().map { folder.appendingPathComponent($0) }
    }
}
