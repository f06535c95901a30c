import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

/// Hints, the progress view, and grade-all's small pieces.
final class StudentLoopTests: XCTestCase {
    let info = TinyLab.info

    func testAHintsSectionWins() {
        let lesson = """
            # Lab
            ## Your exercise
            Fix it. Hint: not this one.
            ## Hints
            - Look at who reads `count`.
            - Copy the value before the thread starts,
              then never touch `self` there.
            ## How the fix works
            - not used
            """
        XCTAssertEqual(
            LessonHints.hints(lesson: lesson, info: info),
            [
                "Look at who reads `count`.", "Copy the value before the thread starts, then never touch `self` there."
            ])
    }

    func testWithoutASectionHintsGoFromGentleToTheFix() {
        let lesson = """
            # Lab
            ## Your exercise
            Make it safe.

            ```
            racelab check tiny
            ```

            It passes when clean. Hint: who else
            touches the counter?
            ## How the fix works
            The fix confines the counter:

            - one queue owns it;
            - results come back on main.

            | detector | fires |
            |---|---|
            """
        let hints = LessonHints.hints(lesson: lesson, info: info)
        XCTAssertEqual(hints.count, 5)
        XCTAssertTrue(
            hints[0].hasPrefix("What the harness checks, in every run of your exercise:\n- the count is right"),
            hints[0])
        XCTAssertTrue(hints[0].contains("caught by: tsan, invariant"))
        XCTAssertEqual(
            Array(hints.dropFirst()),
            [
                "Who else touches the counter?", "The fix confines the counter:", "one queue owns it;",
                "results come back on main."
            ])
    }

    func testProgressRows() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "racelab-progress-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let lab = PlayableLab(TinyLab.self, exercise: { _ in 1 }).lab
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // The rows depend only on the hashes of Exercise*.swift in the lab folder (none here) and the records.
        var progress = StudentProgress()
        let registry = LabRegistry([lab])
        XCTAssertEqual(progress.rows(registry, root: root, manifest: nil).first?.status, .notStarted)
        let hash = StudentProgress.exerciseHash(of: lab, root: root)
        progress.checks["tiny"] = StudentProgress.Check(
            passing: true, score: 10, maxScore: 10, exerciseHash: hash, checkedAt: "today", seed: 3)
        XCTAssertEqual(progress.rows(registry, root: root, manifest: nil).first?.status, .passing)
        progress.checks["tiny"]?.exerciseHash = "older"
        let edited = try XCTUnwrap(progress.rows(registry, root: root, manifest: nil).first)
        XCTAssertEqual(edited.status, .notChecked)
        XCTAssertTrue(edited.detail.contains("edited since the last check (passing"), edited.detail)
        XCTAssertTrue(StudentProgress.render([edited]).contains("0 of 1 lab(s) passing."))
        // On a system without every check of the grader's, a pass is said to be provisional.
        progress.checks["tiny"]?.exerciseHash = hash
        let passing = try XCTUnwrap(progress.rows(registry, root: root, manifest: nil).first)
        let reduced = PlatformChecks(
            preemptionAndHolds: false, quietFromKernel: true, storyHolds: true, childConfinement: true)
        XCTAssertTrue(StudentProgress.render([passing], platform: reduced).contains("provisionally"))
        let full = PlatformChecks(
            preemptionAndHolds: true, quietFromKernel: true, storyHolds: true, childConfinement: true,
            locksInLibraries: true, sameCPUCount: true)
        XCTAssertFalse(StudentProgress.render([passing], platform: full).contains("provisionally"))

        let file = root.appendingPathComponent(".racelab/progress.json")
        progress.hintsShown["tiny"] = 2
        try progress.save(to: file)
        XCTAssertEqual(StudentProgress.load(from: file), progress)
        XCTAssertEqual(
            StudentProgress.file(packageAt: root, environment: ["RACELAB_PROGRESS_FILE": "/tmp/x.json"])?.path,
            "/tmp/x.json")
    }

    func testSummaryCSV() {
        let report = GradeReport(
            command: "c", seed: 1, policy: GradingPolicy(),
            integrity: GradeIntegrity(status: .verified, manifestDigest: nil, findings: [], message: "ok"),
            labs: [], elapsedSeconds: 1)
        let results = [
            ClassGrader.StudentResult(
                student: "ada", status: .graded, report: report, note: "", reportFile: nil, elapsedSeconds: 61),
            ClassGrader.StudentResult(
                student: "bob", status: .rejected, report: nil, note: "Sources is a link, \"really\"",
                reportFile: nil, elapsedSeconds: 1)
        ]
        XCTAssertEqual(
            ClassGrader.summaryCSV(results, labs: ["tiny"]),
            """
            student,status,score,max_score,tiny,seconds,note
            ada,graded,0,0,,61,
            bob,rejected,0,,,1,"Sources is a link, ""really\"\""

            """)
    }

    /// What `racelab check` shows when the build it starts for an edited exercise fails.
    func testAFailedBuildShowsItsErrorsOnceOrItsLastLines() {
        let log = """
            Building for debugging...
            /k/Labs/ListAdder/Exercise.swift:58:17: error: cannot convert value of type 'String' to specified type 'Int'
               |                 `- error: cannot convert value of type 'String' to specified type 'Int'
            /k/Labs/ListAdder/Exercise.swift:58:17: error: cannot convert value of type 'String' to specified type 'Int'
            error: emit-module command failed with exit code 1
            """
        XCTAssertEqual(ChildBuilder.errorLines(of: log).split(separator: "\n").count, 3, "each error line once")
        XCTAssertEqual(
            ChildBuilder.errorLines(of: log, limit: 1),
            "/k/Labs/ListAdder/Exercise.swift:58:17: error: cannot convert value of type 'String' to specified type 'Int'"
        )
        XCTAssertEqual(
            ChildBuilder.errorLines(of: "a\nb\nlinker gave up", limit: 2), "b\nlinker gave up",
            "no error line: the log's end")
    }

    /// The build a student's check starts: none without changed exercises; after one that
    /// succeeded the program is marked current (a no-op build leaves it older than the edit);
    /// after a failed one it is left as it was. `true` and `false` stand in for swift.
    func testARebuildForAChangedExerciseMarksTheProgramCurrentOnlyWhenItSucceeds() throws {
        let tree = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-rebuild-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tree) }
        var builder = ChildBuilder(tree: tree)
        try FileManager.default.createDirectory(at: builder.buildFolder, withIntermediateDirectories: true)
        let old = Date(timeIntervalSinceNow: -3600)
        FileManager.default.createFile(atPath: builder.product.path, contents: Data())
        func age() throws -> Date {
            try XCTUnwrap(
                FileManager.default.attributesOfItem(atPath: builder.product.path)[.modificationDate] as? Date)
        }
        func makeOld() throws {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: builder.product.path)
        }

        try makeOld()
        XCTAssertNil(builder.rebuild(forChanged: []), "nothing changed: no build")
        builder.swift = "false"
        XCTAssertEqual(builder.rebuild(forChanged: ["Labs/Tiny/Exercise.swift"])?.succeeded, false)
        XCTAssertLessThan(try age(), Date(timeIntervalSinceNow: -3000), "a failed build marks nothing current")
        builder.swift = "true"
        XCTAssertEqual(builder.rebuild(forChanged: ["Labs/Tiny/Exercise.swift"])?.succeeded, true)
        XCTAssertGreaterThan(
            try age(), Date(timeIntervalSinceNow: -60), "a build that succeeded marks the program current")
    }

    func testCompilerErrorsAreBlamedOnTheirLab() {
        let log = """
            [3/20] Compiling ListAdderExercises Exercise.swift
            /tmp/grading/kit/Labs/ListAdder/Exercise.swift:12:9: error: cannot find 'numbrs' in scope
            /tmp/grading/kit/Labs/ListAdder/Exercise.swift:14:9: error: second error
            /tmp/grading/kit/Sources/LabKit/X.swift:1:1: error: not a lab
            """
        XCTAssertEqual(
            ChildBuilder.blamedLabFolders(in: log, labFolders: folders),
            ["ListAdder": "Exercise.swift:12: error: cannot find 'numbrs' in scope"])
    }

    /// A renamed exercise factory breaks the catalog line of its lab: that lab is to blame.
    func testAnErrorInTheCatalogIsBlamedOnItsLab() {
        let log = """
            /tmp/grading/kit/Sources/LabCatalog/LabCatalog.swift:47:50: error: cannot find 'makeAsyncOperationExercise' in scope
            """
        XCTAssertEqual(
            ChildBuilder.blamedLabFolders(in: log, labFolders: folders),
            ["AsyncOperation": "LabCatalog.swift:47: error: cannot find 'makeAsyncOperationExercise' in scope"])
    }

    /// A link error names the object file that referred to the missing symbol.
    func testALinkErrorIsBlamedOnTheObjectThatCausedIt() {
        let log = """
            error: link command failed with exit code 1 (use -v to see invocation)
            ld.lld: error: undefined symbol: no_such_function
            >>> referenced by Exercise.swift:9 (/tmp/grading/kit/Labs/ListAdder/Exercise.swift:9)
            >>>               /tmp/grading/kit/.build/x86_64-unknown-linux-gnu/debug/ListAdderExercises.build/Exercise.swift.o:($s...)
            """
        XCTAssertEqual(Array(ChildBuilder.blamedLabFolders(in: log, labFolders: folders).keys), ["ListAdder"])
    }

    let folders = ["AsyncOperation", "ListAdder"]

}
