import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness

/// `racelab export`: a student kit (with, for the instructor, the class-grading workflow), or a
/// Gradescope autograder. Thin: the work is done by StudentKit and GradescopeAutograder.
extension RaceLabCommandLine {
    func export(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let root = try requireRoot()
        let labIDs = try registry.ids
        let workflow = ClassroomWorkflow(labs: labIDs, pointsPerLab: Int(GradingPolicy().pointsPerLab))
        let runners = try arguments.int("runners", in: ClassGradingWorkflow.runnerRange)
        if let zip = arguments.string("gradescope") {
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
        guard let folder = arguments.positionals.first else {
            throw UsageError("where to? racelab export DIR (a student kit) or racelab export --gradescope FILE.zip")
        }
        let destination = URL(fileURLWithPath: folder)
        // A typo must not make a chain of folders: only the kit's own folder is created.
        try checkOutput(folder: destination, option: "export", what: "the kit")
        let summary: StudentKit.Summary
        let classGrading = ClassGradingWorkflow(runners: runners ?? ClassGradingWorkflow.defaultRunners)
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
        let calibrations = CalibrationFile.read(packageAt: root)
        let missing = try registry.labs.filter { calibrations?.current(for: $0) == nil }.map(\.id)
        if !missing.isEmpty {
            print(
                "  note: no current stress calibration for \(missing.joined(separator: ", ")); grading will measure it each time (run racelab calibrate, then export again)"
            )
        }
        return 0
    }
}
