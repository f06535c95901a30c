import Foundation

/// A file a command will write at the end of its work: checked before the work starts (so a
/// typo in a path costs nothing), and written whole or not at all (a new file renamed over
/// the old one, so an interrupted run never leaves half a report).
public enum OutputFile {
    /// Nil when `path` can be written; else why not, in one line.
    public static func problem(writing path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "'\(path)' is a folder; give a file name"
        }
        let folder = url.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            return "the folder '\(folder.path)' does not exist"
        }
        guard access(folder.path, W_OK) == 0 else { return "the folder '\(folder.path)' is not writable" }
        if FileManager.default.fileExists(atPath: url.path), access(url.path, W_OK) != 0 {
            return "'\(path)' is not writable"
        }
        return nil
    }

    /// Nil when files can be written into `folder`, or it can be made (its parent folder exists
    /// and is writable: only the last part of the path is ever created); else why not, in one line.
    public static func problem(writingInto folder: URL) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { return "it is a file, not a folder" }
            return access(folder.path, W_OK) == 0 ? nil : "it is not writable"
        }
        let parent = folder.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory) else {
            return "its parent folder '\(parent.path)' does not exist"
        }
        guard isDirectory.boolValue else { return "'\(parent.path)' is a file, not a folder" }
        return access(parent.path, W_OK) == 0 ? nil : "its parent folder '\(parent.path)' is not writable"
    }

    /// Makes `folder` (its parents too) and proves a file can be written there, by writing one
    /// and removing it: for a command that fills the folder only after long work.
    public static func makeWritableFolder(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let probe = folder.appendingPathComponent(".racelab-write-check")
        try Data().write(to: probe)
        try FileManager.default.removeItem(at: probe)
    }

    /// Writes `text` to `path` atomically.
    public static func write(_ text: String, to path: String) throws {
        try write(Data(text.utf8), to: path)
    }

    /// Writes `data` to `path` atomically.
    public static func write(_ data: Data, to path: String) throws {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
