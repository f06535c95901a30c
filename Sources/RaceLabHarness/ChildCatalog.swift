import Foundation
import LabKit

/// The labs a child program knows, asked of it in a child process: the parent links no lab code.
public enum ChildCatalog {
    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    public static func load(from executable: URL) throws(LoadError) -> LabRegistry {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw LoadError(
                description:
                    "no lab program at \(executable.path); build it first (`make build`, or swift build --sanitize=thread)"
            )
        }
        let folder: RunFolder
        do { folder = try RunFolder.make() } catch { throw LoadError(description: error.description) }
        defer { folder.remove() }
        var request = ChildRequest(
            executable: executable, arguments: ["catalog"],
            environment: TSanEnvironment.childEnvironment(folder: folder),
            directory: folder.url, stallTimeout: 60)
        request.inheritedDescriptor = folder.suppressionsDescriptor
        let outcome = ChildRunner.run(request)
        guard outcome.catalogs.count == 1, outcome.ending == .exited(0) else {
            let why = outcome.stderr.split(separator: "\n").last.map(String.init) ?? "\(outcome.ending)"
            throw LoadError(description: "\(executable.path) did not list its labs: \(why)")
        }
        return outcome.catalogs[0]
    }

    /// `racelab-child` next to `racelab` (both are products of the same build).
    public static func programBeside(_ executable: URL) -> URL {
        executable.deletingLastPathComponent().appendingPathComponent("racelab-child")
    }
}
