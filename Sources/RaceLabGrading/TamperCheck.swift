import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// One way a submission differs from the kit it was handed out as, other than its exercises.
public struct TamperFinding: Codable, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Codable, Sendable {
        /// A shipped file that is not an exercise has other contents.
        case changed
        /// A shipped file is gone.
        case missing
        /// A file the kit did not have (a restored Fixed.swift, an extra source file...).
        case added
        /// The submission's own copy of the manifest differs from the trusted one.
        case manifest
    }

    public var kind: Kind
    public var path: String
    public var detail: String?

    public init(_ kind: Kind, _ path: String, _ detail: String? = nil) {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    public var description: String { "\(path) \(kind.rawValue)" + (detail.map { ": \($0)" } ?? "") }
}

/// Whether a package differs from its kit manifest anywhere but in the exercise files.
public enum TamperCheck {
    /// Whether a file can change what `swift build` / `make` builds and runs: everything but
    /// notes (`.md`, `.txt` anywhere) and top-level files other than Package.swift and the
    /// Makefile (SwiftPM compiles only what is under a target's folder). A student's NOTES.md or
    /// a script of their own at the top cannot change a grade; an extra `.swift` or `.c` file in
    /// Sources or Labs, or an edited Package.swift, can.
    public static func affectsBuild(_ path: String) -> Bool {
        if path.hasSuffix(".md") || path.hasSuffix(".txt") { return false }
        if !path.contains("/") { return path == "Package.swift" || path == "Makefile" }
        return true
    }

    /// Compares the package at `root` with `manifest` (the trusted one). `checkManifestCopy`:
    /// also require the package's own `racelab-kit.json` to equal it.
    public static func check(_ root: URL, against manifest: KitManifest, checkManifestCopy: Bool = true)
        -> [TamperFinding]
    {
        var findings: [TamperFinding] = []
        if checkManifestCopy {
            let copy = KitManifest.read(packageAt: root)
            if copy?.digest != manifest.digest {
                findings.append(
                    TamperFinding(
                        .manifest, KitManifest.fileName,
                        copy == nil ? "missing or unreadable" : "differs from the kit's"))
            }
        }
        let present = KitManifest.packageFiles(under: root)
        let presentSet = Set(present)
        let editable = Set(manifest.editable)
        for path in manifest.files.keys.sorted() {
            guard presentSet.contains(path) else {
                findings.append(TamperFinding(.missing, path))
                continue
            }
            if editable.contains(path) { continue }
            if SHA256.hex(fileAt: root.appendingPathComponent(path)) != manifest.files[path] {
                findings.append(TamperFinding(.changed, path))
            }
        }
        for path in present where manifest.files[path] == nil {
            findings.append(
                TamperFinding(
                    .added, path, KitManifest.isSolution(path) ? "reference solutions are not part of the kit" : nil))
        }
        return findings
    }

    /// One line for reports: "tampered: Sources/RaceLabHarness/Verdict.swift changed; ... (+2 more)".
    public static func summary(_ findings: [TamperFinding], limit: Int = 4) -> String {
        let shown = findings.prefix(limit).map(\.description).joined(separator: "; ")
        return findings.count > limit ? "\(shown) (+\(findings.count - limit) more)" : shown
    }
}
