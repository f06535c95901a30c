import CompilerCheck
import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

/// The kit export and the tamper check, on a small package made up in a temporary folder.
final class StudentKitTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: scratch) }

    func write(_ text: String, _ path: String, in root: URL) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func makePackage() throws -> URL {
        let root = scratch.appendingPathComponent("package")
        for (path, text) in [
            ("Package.swift", "// manifest"), ("Makefile", "all:"), ("README.md", "# lab"),
            ("Labs/Alpha/Scenario.swift", "scenario"), ("Labs/Alpha/Broken.swift", "broken"),
            ("Labs/Alpha/Fixed.swift", "fixed"),
            ("Labs/Alpha/Exercise.swift", "exercise"), ("Labs/Alpha/README.md", "lesson"),
            ("Labs/Beta/Scenario.swift", "s"), ("Labs/Beta/FixedGCD.swift", "f"), ("Labs/Beta/Exercise.swift", "e"),
            ("Sources/RaceLabHarness/Verdict.swift", "harness"), ("Tests/LabsTests/T.swift", "tests"),
            ("Labs/Alpha/.Exercise.swift.swp", "editor junk"), (".build/debug/x", "build output"),
            ("notes/todo.txt", "not package")
        ] { try write(text, path, in: root) }
        return root
    }

    func testExportLeavesSolutionsOutAndWritesAManifest() throws {
        let root = try makePackage()
        let kit = scratch.appendingPathComponent("kit")
        let summary = try StudentKit.export(from: root, to: kit)
        XCTAssertEqual(summary.solutionsLeftOut, ["Labs/Alpha/Fixed.swift", "Labs/Beta/FixedGCD.swift"])
        XCTAssertEqual(
            Set(summary.manifest.files.keys),
            [
                "Package.swift", "Makefile", "README.md", "Labs/Alpha/Scenario.swift", "Labs/Alpha/Broken.swift",
                "Labs/Alpha/Exercise.swift", "Labs/Alpha/README.md", "Labs/Beta/Scenario.swift",
                "Labs/Beta/Exercise.swift",
                "Sources/RaceLabHarness/Verdict.swift"
            ])
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: kit.appendingPathComponent("Tests/LabsTests/T.swift").path),
            "the harness's own tests stay in the project")
        XCTAssertEqual(summary.manifest.editable, ["Labs/Alpha/Exercise.swift", "Labs/Beta/Exercise.swift"])
        XCTAssertEqual(summary.manifest.files["Labs/Alpha/Exercise.swift"], SHA256.hex("exercise"))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: kit.appendingPathComponent("Labs/Alpha/Fixed.swift").path))
        XCTAssertEqual(KitManifest.read(packageAt: kit), summary.manifest)
        XCTAssertEqual(TamperCheck.check(kit, against: summary.manifest), [], "a fresh kit is what it says it is")
        XCTAssertThrowsError(try StudentKit.export(from: root, to: kit), "the kit folder is not empty now")
    }

    /// A kit's test suite is one test per lab, in the course's order, each a `racelab check`.
    func testTheKitsTestsAreOnePerLab() throws {
        let root = try makePackage()
        let kit = scratch.appendingPathComponent("kit")
        let summary = try StudentKit.export(
            from: root, to: kit, workflow: ClassroomWorkflow(labs: ["list-adder", "ui-off-main"], pointsPerLab: 10))
        let tests = try String(contentsOf: kit.appendingPathComponent(KitLabChecks.file), encoding: .utf8)
        XCTAssertTrue(tests.contains("func test01_list_adder() throws { try check(\"list-adder\") }"), tests)
        XCTAssertTrue(tests.contains("func test02_ui_off_main() throws { try check(\"ui-off-main\") }"), tests)
        XCTAssertTrue(tests.contains("process.arguments = [\"check\", lab]"), tests)
        XCTAssertNotNil(summary.manifest.files[KitLabChecks.file], "a student edits exercises only")
        XCTAssertEqual(KitLabChecks.testName("too-many-threads", index: 14), "test14_too_many_threads")
    }

    /// The development container ships in every kit, outside the manifest (grading never reads it).
    func testTheKitCarriesTheDevelopmentContainer() throws {
        let root = try makePackage()
        try write("{\"image\": \"swift:6.3.1\"}", StudentKit.devcontainerPath, in: root)
        let kit = scratch.appendingPathComponent("kit")
        let summary = try StudentKit.export(from: root, to: kit)
        let shipped = try String(contentsOf: kit.appendingPathComponent(StudentKit.devcontainerPath), encoding: .utf8)
        XCTAssertTrue(shipped.contains("swift:6.3.1"))
        XCTAssertNil(summary.manifest.files[StudentKit.devcontainerPath])
    }

    /// The container is the grader's system: the Swift image of the version the grader installs.
    func testTheContainerRunsTheGradersSwift() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let installer = try String(contentsOf: root.appendingPathComponent("Grading/install-swift.sh"), encoding: .utf8)
        let version = try XCTUnwrap(installer.firstMatch(of: /RACELAB_SWIFT_VERSION:-([0-9.]+)\}/)?.1)
        let container = try String(
            contentsOf: root.appendingPathComponent(StudentKit.devcontainerPath), encoding: .utf8)
        XCTAssertTrue(
            container.contains("\"image\": \"swift:\(version)\""),
            "the container's Swift is not the grader's \(version)")
        XCTAssertTrue(container.contains("make build"), "the container builds on create")
    }

    /// Grading/compiler.json ships without what Swift 6 said of the reference fixes.
    func testKitCompilerResultsLeaveTheFixesOut() throws {
        let root = try makePackage()
        func result(_ part: LabPart) -> CompilerCheckResult {
            CompilerCheckResult(
                lab: "alpha", part: part, files: [], sourceDigest: "d", compiler: "Swift version 6.3.1",
                measuredAt: "now",
                status: .accepted, errors: 0, newWarnings: 0, diagnostics: [])
        }
        try CompilerFile(results: [result(.broken), result(.exercise), result(.fixed), result(.swift6)]).write(
            packageAt: root)
        let kit = scratch.appendingPathComponent("kit")
        let summary = try StudentKit.export(from: root, to: kit)
        XCTAssertEqual(CompilerFile.read(packageAt: kit)?.results.map(\.part), [.broken, .exercise])
        XCTAssertEqual(
            summary.manifest.files[CompilerFile.relativePath],
            SHA256.hex(fileAt: kit.appendingPathComponent(CompilerFile.relativePath)))
        XCTAssertEqual(TamperCheck.check(kit, against: summary.manifest), [])
    }

    func testOnlyExerciseEditsPass() throws {
        let kit = scratch.appendingPathComponent("kit")
        let manifest = try StudentKit.export(from: try makePackage(), to: kit).manifest
        try write("my fix", "Labs/Alpha/Exercise.swift", in: kit)
        try write("swap", "Labs/Beta/.Exercise.swift.swp", in: kit)
        try write("build", ".build/debug/racelab", in: kit)
        XCTAssertEqual(TamperCheck.check(kit, against: manifest), [])
    }

    func testHarnessTestAndSolutionEditsAreTampering() throws {
        let kit = scratch.appendingPathComponent("kit")
        let manifest = try StudentKit.export(from: try makePackage(), to: kit).manifest
        try write("always pass", "Sources/RaceLabHarness/Verdict.swift", in: kit)
        try FileManager.default.removeItem(at: kit.appendingPathComponent("Labs/Alpha/Broken.swift"))
        try write("the solution", "Labs/Alpha/Fixed.swift", in: kit)
        let findings = TamperCheck.check(kit, against: manifest)
        XCTAssertEqual(findings.map(\.kind), [.missing, .changed, .added])
        XCTAssertEqual(
            findings.map(\.path),
            ["Labs/Alpha/Broken.swift", "Sources/RaceLabHarness/Verdict.swift", "Labs/Alpha/Fixed.swift"])
        XCTAssertTrue(
            TamperCheck.summary(findings).hasPrefix(
                "Labs/Alpha/Broken.swift missing; Sources/RaceLabHarness/Verdict.swift changed"))
    }

    func testARewrittenManifestDoesNotHideAnEdit() throws {
        let kit = scratch.appendingPathComponent("kit")
        let trusted = try StudentKit.export(from: try makePackage(), to: kit).manifest
        try write("always pass", "Sources/RaceLabHarness/Verdict.swift", in: kit)
        // The student regenerates the manifest so the kit agrees with itself...
        try KitManifest(files: KitManifest.hashes(of: KitManifest.packageFiles(under: kit), under: kit))
            .write(to: kit.appendingPathComponent(KitManifest.fileName))
        XCTAssertEqual(
            Grader.integrity(of: kit, trusted: nil).status, .verified, "...which fools a check against its own copy")
        // ...but not the instructor's, who checks against the manifest of the kit handed out.
        let integrity = Grader.integrity(of: kit, trusted: trusted)
        XCTAssertEqual(integrity.status, .tampered)
        XCTAssertEqual(integrity.findings.map(\.kind), [.manifest, .changed])
    }

    /// Notes and a script of the student's own at the top change nothing the build uses: noted,
    /// ignored, graded (a Classroom repository is the student's). Package.swift is not a note.
    func testNotesAndTopLevelScriptsAreIgnoredButPackageSwiftIsNot() throws {
        let kit = scratch.appendingPathComponent("kit")
        _ = try StudentKit.export(from: try makePackage(), to: kit)
        try write("my notes", "NOTES.md", in: kit)
        try write("echo hi", "workflow-steps.sh", in: kit)
        try write("why it races", "Labs/Alpha/notes.txt", in: kit)
        let ignored = Grader.integrity(of: kit, trusted: nil)
        XCTAssertEqual(ignored.status, .ignored, ignored.message)
        XCTAssertEqual(ignored.findings.count, 3)
        try write("// no TSan", "Package.swift", in: kit)
        XCTAssertEqual(Grader.integrity(of: kit, trusted: nil).status, .tampered)
        XCTAssertTrue(TamperCheck.affectsBuild("Sources/LabKit/Extra.swift"))
        XCTAssertTrue(TamperCheck.affectsBuild("Labs/Alpha/Helper.c"))
        XCTAssertFalse(TamperCheck.affectsBuild("README.md"))
    }

    func testWithoutAManifestTheCheckIsSkippedAndSaysSo() throws {
        let integrity = Grader.integrity(of: try makePackage(), trusted: nil)
        XCTAssertEqual(integrity.status, .unchecked)
        XCTAssertTrue(integrity.message.contains("not a student kit"))
    }

    /// The instructor's class-grading workflow goes into the kit's instructor/ folder, outside the
    /// manifest and outside .github/workflows/ (in a student's copy it never runs).
    func testTheClassGradingWorkflowIsWrittenForTheInstructor() throws {
        let root = try makePackage()
        let kit = scratch.appendingPathComponent("kit")
        let summary = try StudentKit.export(from: root, to: kit, classGrading: ClassGradingWorkflow(runners: 6))
        XCTAssertEqual(summary.classGradingWorkflow, "instructor/grade-class.yml")
        let yaml = try String(contentsOf: kit.appendingPathComponent("instructor/grade-class.yml"), encoding: .utf8)
        XCTAssertTrue(yaml.contains("--shard ${{ matrix.shard }}/6"), yaml)
        XCTAssertTrue(yaml.contains("grade-merge shards/grades-shard-*"), yaml)
        XCTAssertNil(summary.manifest.files["instructor/grade-class.yml"])
        XCTAssertEqual(TamperCheck.check(kit, against: summary.manifest), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: kit.appendingPathComponent(".github/workflows").path))
        let plain = try StudentKit.export(from: root, to: scratch.appendingPathComponent("plain"))
        XCTAssertNil(plain.classGradingWorkflow)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: plain.destination.appendingPathComponent("instructor").path))
    }

    func testExportRefusesAFolderInsideThePackage() throws {
        let root = try makePackage()
        XCTAssertThrowsError(try StudentKit.export(from: root, to: root.appendingPathComponent("Labs/kit")))
    }
}
