import CRaceLabSupport
import Foundation

/// A private folder for one child run: made fresh (mode 0700, unpredictable name) before the
/// child starts, its working directory, and where the trace file goes. Nothing in it is reused by
/// another run, lab or submission; `remove()` deletes it afterwards.
///
/// The TSan suppressions a child gets are not a file anyone can write: on Linux they live in a
/// sealed in-memory file that the child inherits as descriptor 4 and TSan reads as
/// /proc/self/fd/4, so not even a root process can change them between the harness writing them
/// and TSan reading them. Elsewhere they are a file in the folder, checked after the run.
public final class RunFolder: @unchecked Sendable {
    public let url: URL
    /// What TSan's `suppressions=` option names.
    public let suppressionsPath: String
    /// The sealed descriptor to hand the child as fd 4 (nil: the suppressions are a file).
    public let suppressionsDescriptor: Int32?
    let suppressionsDigest: [UInt8]

    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    init(url: URL, suppressionsPath: String, descriptor: Int32?, digest: [UInt8]) {
        self.url = url
        self.suppressionsPath = suppressionsPath
        self.suppressionsDescriptor = descriptor
        self.suppressionsDigest = digest
    }

    /// A new folder under `parent` (default: the temporary folder).
    public static func make(in parent: URL = FileManager.default.temporaryDirectory) throws(SetupError) -> RunFolder {
        let url = try privateFolder(named: "racelab-run", in: parent)
        let contents = Array(TSanEnvironment.suppressions.utf8)
        let descriptor = contents.withUnsafeBytes {
            rl_sealed_memfd("racelab-tsan-suppressions", $0.baseAddress, $0.count)
        }
        if descriptor >= 0 {
            return RunFolder(
                url: url, suppressionsPath: "/proc/self/fd/\(ChildChannel.suppressionsDescriptor)",
                descriptor: descriptor,
                digest: SHA256.hash(contents))
        }
        let file = url.appendingPathComponent("tsan-suppressions.txt")
        do {
            try Data(contents).write(to: file, options: .withoutOverwriting)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw SetupError(description: "cannot write \(file.path): \(error.localizedDescription)")
        }
        return RunFolder(url: url, suppressionsPath: file.path, descriptor: nil, digest: SHA256.hash(contents))
    }

    /// Whether the suppressions still hold exactly what the harness wrote (always, when sealed;
    /// a child that rewrote the file was up to something).
    public var suppressionsIntact: Bool {
        if suppressionsDescriptor != nil { return true }
        guard let data = FileManager.default.contents(atPath: suppressionsPath) else { return false }
        return SHA256.hash(Array(data)) == suppressionsDigest
    }

    public func remove() {
        if let suppressionsDescriptor { close(suppressionsDescriptor) }
        try? FileManager.default.removeItem(at: url)
        Interruption.untrack(folder: url)
    }

    /// A fresh folder only this user can enter (mode 0700), with an unpredictable name that
    /// starts with `name`.
    /// It is removed if the command is interrupted (`Interruption`) until `remove()` or an
    /// `Interruption.untrack` says it is no longer needed.
    public static func privateFolder(named name: String, in parent: URL = FileManager.default.temporaryDirectory)
        throws(SetupError) -> URL
    {
        let made = Interruption.tracking { () -> URL? in
            var template = Array(parent.appendingPathComponent("\(name)-XXXXXX").path.utf8CString)
            guard let path = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
            return URL(fileURLWithPath: String(cString: path))
        }
        guard let made else {
            throw SetupError(
                description: "cannot create a private folder in \(parent.path): \(String(cString: strerror(errno)))")
        }
        return made
    }
}
