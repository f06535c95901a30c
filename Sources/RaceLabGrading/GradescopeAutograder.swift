import Foundation
import RaceLabHarness

/// `racelab export --gradescope FILE.zip`: a Gradescope autograder. The zip holds the student
/// kit (`kit/`, reference solutions left out, with its manifest) and Gradescope's two scripts
/// from `Grading/Gradescope/`: `setup.sh` (Swift, the kit's racelab, the kit built once into a
/// workspace) and `run_autograder` (grade-all on /autograder/submission, results.json out).
public enum GradescopeAutograder {
    public static let scripts = ["setup.sh", "run_autograder"]
    public static let scriptFolder = "Grading/Gradescope"

    public struct Summary: Sendable {
        public var file: URL
        public var entries: Int
        public var bytes: Int
        public var kit: StudentKit.Summary
    }

    public static func export(from root: URL, to file: URL, workflow: ClassroomWorkflow?) throws(StudentKit.ExportError)
        -> Summary
    {
        let staging: URL
        do { staging = try RunFolder.privateFolder(named: "racelab-gradescope") } catch {
            throw StudentKit.ExportError(error.description)
        }
        defer {
            try? FileManager.default.removeItem(at: staging)
            Interruption.untrack(folder: staging)
        }
        let kitFolder = staging.appendingPathComponent("kit")
        let kit = try StudentKit.export(from: root, to: kitFolder, workflow: workflow)
        var archive = ZipArchive()
        for name in scripts {
            guard
                let data = FileManager.default.contents(
                    atPath: root.appendingPathComponent("\(scriptFolder)/\(name)").path)
            else {
                throw StudentKit.ExportError(
                    "\(scriptFolder)/\(name) is missing from the package; it is what Gradescope runs")
            }
            archive.add(name, data, executable: true)
        }
        var paths = KitManifest.packageFiles(under: kitFolder) + [KitManifest.fileName]
        if workflow != nil { paths.append(ClassroomWorkflow.path) }
        for path in paths.sorted() {
            let url = kitFolder.appendingPathComponent(path)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw StudentKit.ExportError("cannot read back \(path) from the kit")
            }
            archive.add("kit/" + path, data, executable: FileManager.default.isExecutableFile(atPath: url.path))
        }
        let bytes: Data
        do { bytes = try archive.encoded() } catch { throw StudentKit.ExportError(error.localizedDescription) }
        do { try OutputFile.write(bytes, to: file.path) } catch {
            throw StudentKit.ExportError("cannot write '\(file.path)': \(error.localizedDescription)")
        }
        return Summary(file: file, entries: archive.entries.count, bytes: bytes.count, kit: kit)
    }
}
