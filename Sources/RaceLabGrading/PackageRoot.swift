import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// Where the package's sources are: the kit export, the tamper check, the stress calibration
/// and the student's progress all work on that folder.
public enum PackageRoot {
    /// The package this racelab was built from (two folders above a lab's folder, as compiled),
    /// when that folder still holds Package.swift; otherwise the first folder from the current
    /// directory upward that holds Package.swift and Labs/.
    public static func locate(
        _ registry: LabRegistry?,
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) -> URL? {
        if let folder = registry?.labs.first?.info.folder {
            let root = folder.deletingLastPathComponent().deletingLastPathComponent()
            if isPackage(root) { return root.standardizedFileURL }
        }
        var directory = currentDirectory.standardizedFileURL
        while true {
            if isPackage(directory) { return directory }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return nil }
            directory = parent
        }
    }

    public static func isPackage(_ directory: URL) -> Bool {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        return fileManager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path)
            && fileManager.fileExists(atPath: directory.appendingPathComponent("Labs").path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// `path` relative to `root` ("Labs/ListAdder/Exercise.swift"), or the path itself when it
    /// lies outside.
    public static func relative(_ path: String, to root: URL) -> String {
        let prefix =
            root.standardizedFileURL.path.hasSuffix("/")
            ? root.standardizedFileURL.path : root.standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
