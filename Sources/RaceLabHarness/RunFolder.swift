import Foundation

/// A private folder for one child run: made fresh (mode 0700, unpredictable name) before the
/// child starts, its working directory, and the home of everything the harness hands it (the
/// TSan suppressions file, the trace file). Nothing in it is reused by another run, lab or
/// submission; `remove()` deletes it afterwards.
public struct RunFolder: Sendable {
    public let url: URL
    /// The suppressions file TSan reads, and the SHA-256 of what was written to it.
    public let suppressionsFile: URL
    let suppressionsDigest: [UInt8]

    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    /// A new folder under `parent` (default: the temporary folder).
    public static func make(in parent: URL = FileManager.default.temporaryDirectory) throws(SetupError) -> RunFolder {
        let url = try privateFolder(named: "racelab-run", in: parent)
        let suppressions = url.appendingPathComponent("tsan-suppressions.txt")
        let contents = Array(TSanEnvironment.suppressions.utf8)
        do {
            try Data(contents).write(to: suppressions, options: .withoutOverwriting)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw SetupError(description: "cannot write \(suppressions.path): \(error.localizedDescription)")
        }
        return RunFolder(url: url, suppressionsFile: suppressions, suppressionsDigest: SHA256.hash(contents))
    }

    /// Whether the suppressions file still holds exactly what the harness wrote (TSan read it
    /// when the child started; a child that rewrote it was up to something).
    public var suppressionsIntact: Bool {
        guard let data = FileManager.default.contents(atPath: suppressionsFile.path) else { return false }
        return SHA256.hash(Array(data)) == suppressionsDigest
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }

    /// A fresh folder only this user can enter (mode 0700), with an unpredictable name that
    /// starts with `name`.
    public static func privateFolder(named name: String, in parent: URL = FileManager.default.temporaryDirectory) throws(SetupError) -> URL {
        var template = Array(parent.appendingPathComponent("\(name)-XXXXXXXX").path.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SetupError(description: "cannot create a private folder in \(parent.path): \(String(cString: strerror(errno)))")
        }
        return URL(fileURLWithPath: String(cString: made))
    }
}
