import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness

/// `racelab export`'s declaration: its options, each read by its symbol.
enum ExportCommand {
    static let gradescope = Option.text(
        "gradescope", "FILE.zip", "write a Gradescope autograder: the kit, setup.sh, run_autograder")
    static let runners = Option.number(
        "runners", "N",
        "the kit's instructor/grade-class.yml (a GitHub Actions workflow that grades a class) splits "
            + "it over N runners (default \(ClassGradingWorkflow.defaultRunners))",
        in: ClassGradingWorkflow.runnerRange)

    static let spec = CommandSpec(
        name: "export", arguments: "[DIR]", positionals: 0...1,
        summary:
            "DIR: a student kit (no Fixed*.swift; racelab-kit.json and a GitHub Classroom workflow, "
            + ".github/workflows/racelab.yml; for you, instructor/grade-class.yml: the class on N runners); "
            + "or, with --gradescope, a Gradescope autograder",
        options: [gradescope, runners])
}

/// What `racelab export` was asked to write, checked before anything is written.
enum ExportRequest {
    /// A student kit in this folder, its class-grading workflow on `runners` runners (nil: the default).
    case kit(URL, runners: Int?)
    /// A Gradescope autograder, this zip file.
    case gradescope(String)
}

/// `racelab export`: a student kit (with, for the instructor, the class-grading workflow), or a
/// Gradescope autograder. Thin: the work is done by StudentKit and GradescopeAutograder.
extension RaceLabCommandLine {
    func export(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let root = try requireRoot()
        let labIDs = try registry.ids
        let workflow = ClassroomWorkflow(labs: labIDs, pointsPerLab: Int(GradingPolicy().pointsPerLab))
        switch try exportRequest(arguments) {
        case .gradescope(let zip): return try exportAutograder(from: root, to: zip, workflow: workflow)
        case .kit(let folder, let runners):
            return try exportKit(
                from: root, to: folder, workflow: workflow,
                classGrading: ClassGradingWorkflow(runners: runners ?? ClassGradingWorkflow.defaultRunners))
        }
    }

    func exportRequest(_ arguments: ParsedArguments) throws(UsageError) -> ExportRequest {
        let runners = try arguments[ExportCommand.runners]
        if let zip = try arguments[ExportCommand.gradescope] {
            // Gradescope grades one submission at a time: no class to split over runners.
            guard runners == nil else {
                throw UsageError(
                    "--runners writes the class-grading workflow of a kit folder; a Gradescope autograder has none")
            }
            guard arguments.positionals.isEmpty else {
                throw UsageError("give either a kit folder or --gradescope FILE.zip, not both")
            }
            guard zip.hasSuffix(".zip") else {
                throw UsageError("--gradescope writes a zip: give a file name ending in .zip, not '\(zip)'")
            }
            try checkOutput(file: zip, option: "--gradescope", what: "the autograder")
            return .gradescope(zip)
        }
        guard let folder = arguments.positionals.first else {
            throw UsageError("where to? racelab export DIR (a student kit) or racelab export --gradescope FILE.zip")
        }
        let destination = URL(fileURLWithPath: folder)
        // A typo must not make a chain of folders: only the kit's own folder is created.
        try checkOutput(folder: destination, option: "export", what: "the kit")
        return .kit(destination, runners: runners)
    }

    func exportAutograder(from root: URL, to zip: String, workflow: ClassroomWorkflow) throws(UsageError) -> Int32 {
        let bundle: GradescopeAutograder.Summary
        do {
            bundle = try GradescopeAutograder.export(from: root, to: URL(fileURLWithPath: zip), workflow: workflow)
        } catch {
            throw UsageError(error.description)
        }
        print(
            "racelab export: Gradescope autograder \(zip): \(bundle.entries) files, \(bundle.bytes / 1024) KiB (setup.sh, run_autograder, kit/ with manifest \(bundle.kit.manifest.digest.prefix(12)))"
        )
        print(
            "  upload it as the assignment's autograder (Ubuntu 22.04 base image); students submit their kit folder (zip or GitHub)"
        )
        return 0
    }

    func exportKit(
        from root: URL, to destination: URL, workflow: ClassroomWorkflow, classGrading: ClassGradingWorkflow
    ) throws(UsageError) -> Int32 {
        let summary: StudentKit.Summary
        do {
            summary = try StudentKit.export(
                from: root, to: destination, workflow: workflow, classGrading: classGrading)
        } catch {
            throw UsageError(error.description)
        }
        print(
            "racelab export: student kit in \(summary.destination.path): \(summary.manifest.files.count) files, \(summary.manifest.editable.count) exercise file(s) students may edit"
        )
        print(
            "  left out (reference solutions): \(summary.solutionsLeftOut.isEmpty ? "none" : summary.solutionsLeftOut.joined(separator: ", "))"
        )
        print(
            "  GitHub Classroom: \(ClassroomWorkflow.path) grades each lab on every push (feedback: the student controls that repository; grade-all gives the marks)"
        )
        if let path = summary.classGradingWorkflow {
            print(
                "  for you, not the students: \(path) grades the whole class on \(classGrading.runners) GitHub runners "
                    + "(grade-all --shard K/\(classGrading.runners), then grade-merge); copy it to .github/workflows/ "
                    + "of your grading repository (this kit and a submissions/ folder); docs/instructors.md says how"
            )
        }
        print(
            "  manifest: \(KitManifest.fileName), digest \(summary.manifest.digest.prefix(12)) (grade-all --kit \(summary.destination.path) checks submissions against it)"
        )
        let calibrations = CalibrationFile.read(packageAt: root) ?? CalibrationFile(labs: [])
        let missing = calibrations.uncalibrated(try registry.labs)
        if !missing.isEmpty {
            print(
                "  note: no current stress calibration for \(missing.joined(separator: ", ")); grading will measure it each time (run racelab calibrate, then export again)"
            )
        }
        return 0
    }
}
