import Foundation

/// The modules a `swift build` left behind (`.build/<triple>/debug`), which a check compiles
/// against: LabKit and each lab module, as the labs are really built, without building again.
public struct BuildProducts: Sendable {
    /// The build folder (where racelab and racelab-child are).
    public let folder: URL

    public init(folder: URL) { self.folder = folder.standardizedFileURL }

    /// Where the `.swiftmodule`s are: `Modules/` (SwiftPM 6), else the build folder itself.
    public var modulesFolder: URL {
        let modules = folder.appendingPathComponent("Modules")
        return FileManager.default.fileExists(atPath: modules.path) ? modules : folder
    }

    public func swiftmodule(_ name: String) -> URL { modulesFolder.appendingPathComponent("\(name).swiftmodule") }

    /// The module maps SwiftPM wrote for C targets (`<Target>.build/module.modulemap`): LabKit's
    /// interface imports CRaceLabSupport, so swiftc needs them to read LabKit.
    public var moduleMaps: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".build") }.sorted()
            .map { folder.appendingPathComponent($0).appendingPathComponent("module.modulemap") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The search paths and module maps for swiftc, and the build's own module cache.
    public var searchArguments: [String] {
        ["-I", modulesFolder.path] + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] }
            + ["-module-cache-path", folder.appendingPathComponent("ModuleCache").path]
    }

    /// Why `sources` cannot be checked against this build, or nil: the lab module is missing, or
    /// older than the files it was built from (the check would read a stale interface).
    public func problem(checking sources: LabModuleSources) -> String? {
        let module = swiftmodule(sources.labModule)
        guard let moduleDate = modificationDate(module) else {
            return "the lab module \(sources.labModule) is not built in \(folder.path); run `make build` first"
        }
        // The compiler leaves an unchanged interface untouched, and an unchanged object file too
        // (an edit of comments only), so the newest object file or dependency record (written at
        // every compile of its file) of the module says when it was last built.
        let objects = folder.appendingPathComponent("\(sources.labModule).build")
        let objectDates = ((try? FileManager.default.contentsOfDirectory(atPath: objects.path)) ?? [])
            .filter { $0.hasSuffix(".o") || $0.hasSuffix(".swiftdeps") }
            .compactMap { modificationDate(objects.appendingPathComponent($0)) }
        let built = ([moduleDate] + objectDates).max()!
        for file in sources.labModuleFiles {
            if let changed = modificationDate(file), changed > built {
                return
                    "Labs/\(sources.labModule)/\(file.lastPathComponent) changed after the last build; run `make build` first"
            }
        }
        return nil
    }

    func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }
}
