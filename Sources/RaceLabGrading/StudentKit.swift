import CompilerCheck
import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// `racelab export`: a copy of the package for students. The reference solutions
/// (`Labs/*/Fixed*.swift`) stay behind; everything else goes, so the kit builds, its tests pass
/// and its grader runs. A manifest of every shipped file's hash (`racelab-kit.json`) is written
/// last: grading uses it to tell an edited exercise from an edited harness.
public enum StudentKit {
    /// The development container (VS Code Dev Containers, GitHub Codespaces), shipped in every kit.
    public static let devcontainerPath = ".devcontainer/devcontainer.json"

    public struct Summary: Sendable {
        public var destination: URL
        public var manifest: KitManifest
        /// Solution files left out, relative paths.
        public var solutionsLeftOut: [String]
        /// The instructor's class-grading workflow, relative path; nil when none was asked for.
        public var classGradingWorkflow: String?
    }

    public struct ExportError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// `workflow`: written to `.github/workflows/racelab.yml` (outside the manifest: the workflow
    /// is the student's to run, and grade-all never reads it). `classGrading`: the instructor's,
    /// written to `instructor/grade-class.yml` (outside the manifest too).
    public static func export(
        from root: URL, to destination: URL, workflow: ClassroomWorkflow? = nil,
        classGrading: ClassGradingWorkflow? = nil
    ) throws(ExportError) -> Summary {
        let source = root.standardizedFileURL
        let target = destination.standardizedFileURL
        try checkDestination(target, named: destination, outside: source)
        let all = KitManifest.packageFiles(under: source).filter { !KitLabChecks.staysInProject($0) }
        let left = all.filter(KitManifest.isSolution)
        var shipped = all.filter { !KitManifest.isSolution($0) }
        try copy(shipped, from: source, to: target, named: destination)
        // The student's test suite: one test per lab (in the manifest: a student edits exercises only).
        if let workflow, !workflow.steps.isEmpty {
            try write(KitLabChecks.file, in: target) { Data(KitLabChecks.source(labs: workflow.steps.map(\.lab)).utf8) }
            if !shipped.contains(KitLabChecks.file) { shipped.append(KitLabChecks.file) }
        }
        // The container the grader's system runs in (outside the manifest, like the workflow: grading
        // never reads it). A student on a Mac or on Windows opens the kit in it.
        let container = source.appendingPathComponent(devcontainerPath)
        if FileManager.default.fileExists(atPath: container.path) {
            try write(devcontainerPath, in: target) { try Data(contentsOf: container) }
        }
        let workflows = [(ClassroomWorkflow.path, workflow?.yaml), (ClassGradingWorkflow.path, classGrading?.yaml)]
        for case (let path, let yaml?) in workflows {
            try write(path, in: target) { Data(yaml.utf8) }
        }
        let manifest = try writeManifest(of: shipped, in: target, named: destination)
        return Summary(
            destination: target, manifest: manifest, solutionsLeftOut: left,
            classGradingWorkflow: classGrading == nil ? nil : ClassGradingWorkflow.path)
    }

    /// A kit goes to a new or empty folder, outside the package's own folders (it would copy itself).
    private static func checkDestination(_ target: URL, named destination: URL, outside source: URL)
        throws(ExportError)
    {
        if let contents = try? FileManager.default.contentsOfDirectory(atPath: target.path), !contents.isEmpty {
            throw ExportError("'\(destination.path)' already exists and is not empty; give a new folder")
        }
        for directory in KitManifest.directories {
            let inside = source.appendingPathComponent(directory).path + "/"
            if (target.path + "/").hasPrefix(inside) {
                throw ExportError(
                    "'\(destination.path)' lies inside the package's \(directory)/; give a folder outside it")
            }
        }
    }

    /// Copies each of `paths` (relative) from the package to the kit, executables staying executable.
    private static func copy(_ paths: [String], from source: URL, to target: URL, named destination: URL)
        throws(ExportError)
    {
        let fileManager = FileManager.default
        do {
            try fileManager.createDirectory(at: target, withIntermediateDirectories: true)
            for path in paths {
                let to = target.appendingPathComponent(path)
                try fileManager.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
                // Contents, not links: a kit must stand on its own.
                try Data(contentsOf: source.appendingPathComponent(path)).write(to: to)
                if path == CompilerFile.relativePath, let results = CompilerFile.read(packageAt: source) {
                    // What Swift 6 said of the reference fixes stays behind with them.
                    try results.withoutSolutions.write(packageAt: target)
                }
                if fileManager.isExecutableFile(atPath: source.appendingPathComponent(path).path) {
                    try fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: to.path)
                }
            }
        } catch {
            throw ExportError("cannot write the kit to '\(destination.path)': \(error.localizedDescription)")
        }
    }

    /// Writes what `contents` gives to `path` (relative) in the kit, making its folder.
    private static func write(_ path: String, in target: URL, contents: () throws -> Data) throws(ExportError) {
        let file = target.appendingPathComponent(path)
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents().write(to: file)
        } catch {
            throw ExportError("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// The hashes of every shipped file, read back from the kit, written last.
    private static func writeManifest(of shipped: [String], in target: URL, named destination: URL)
        throws(ExportError) -> KitManifest
    {
        let manifest = KitManifest(files: KitManifest.hashes(of: shipped, under: target))
        guard manifest.files.count == shipped.count else {
            throw ExportError("could not read back every file written to '\(destination.path)'")
        }
        do {
            try manifest.write(to: target.appendingPathComponent(KitManifest.fileName))
        } catch {
            throw ExportError("cannot write \(KitManifest.fileName): \(error.localizedDescription)")
        }
        return manifest
    }
}
