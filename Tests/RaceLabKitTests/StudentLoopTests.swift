@testable import RaceLabKit
import XCTest

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
        XCTAssertEqual(LessonHints.hints(lesson: lesson, info: info), [
            "Look at who reads `count`.", "Copy the value before the thread starts, then never touch `self` there.",
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
        XCTAssertTrue(hints[0].hasPrefix("What the harness checks, in every run of your exercise:\n- the count is right"), hints[0])
        XCTAssertTrue(hints[0].contains("caught by: tsan, invariant"))
        XCTAssertEqual(Array(hints.dropFirst()), ["Who else touches the counter?", "The fix confines the counter:", "one queue owns it;",
                                                  "results come back on main."])
    }

    func testProgressRows() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-progress-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let lab = Lab(TinyLab.self)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // The rows depend only on the hashes of Exercise*.swift in the lab folder (none here) and the records.
        var progress = StudentProgress()
        let registry = LabRegistry([lab])
        XCTAssertEqual(progress.rows(registry, root: root, manifest: nil).first?.status, .notStarted)
        let hash = StudentProgress.exerciseHash(of: lab, root: root)
        progress.checks["tiny"] = StudentProgress.Check(passing: true, score: 10, maxScore: 10, exerciseHash: hash, checkedAt: "today", seed: 3)
        XCTAssertEqual(progress.rows(registry, root: root, manifest: nil).first?.status, .passing)
        progress.checks["tiny"]?.exerciseHash = "older"
        let edited = try XCTUnwrap(progress.rows(registry, root: root, manifest: nil).first)
        XCTAssertEqual(edited.status, .notChecked)
        XCTAssertTrue(edited.detail.contains("edited since the last check (passing"), edited.detail)
        XCTAssertTrue(StudentProgress.render([edited]).contains("0 of 1 lab(s) passing."))

        let file = root.appendingPathComponent(".racelab/progress.json")
        progress.hintsShown["tiny"] = 2
        try progress.save(to: file)
        XCTAssertEqual(StudentProgress.load(from: file), progress)
        XCTAssertEqual(StudentProgress.file(packageAt: root, environment: ["RACELAB_PROGRESS_FILE": "/tmp/x.json"])?.path, "/tmp/x.json")
    }

    func testSummaryCSV() {
        let report = GradeReport(command: "c", seed: 1, policy: GradingPolicy(),
                                 integrity: GradeIntegrity(status: .verified, manifestDigest: nil, findings: [], message: "ok"),
                                 labs: [], elapsedSeconds: 1)
        let results = [
            ClassGrader.StudentResult(student: "ada", status: .graded, report: report, note: "", reportFile: nil, elapsedSeconds: 61),
            ClassGrader.StudentResult(student: "bob", status: .tampered, report: nil, note: "Sources/a.swift changed, \"really\"",
                                      reportFile: nil, elapsedSeconds: 1),
        ]
        XCTAssertEqual(ClassGrader.summaryCSV(results, labs: ["tiny"]), """
            student,status,score,max_score,tiny,seconds,note
            ada,graded,0,0,,61,
            bob,tampered,0,,,1,"Sources/a.swift changed, ""really\"\""

            """)
    }

    func testCompilerErrorsInExercisesAreFound() {
        let copy = URL(fileURLWithPath: "/tmp/grading/ada")
        let log = """
            [3/20] Compiling ListAdder Exercise.swift
            /tmp/grading/ada/Labs/ListAdder/Exercise.swift:12:9: error: cannot find 'numbrs' in scope
            /tmp/grading/ada/Labs/ListAdder/Exercise.swift:14:9: error: second error
            /tmp/grading/ada/Sources/RaceLabKit/X.swift:1:1: error: not an exercise
            """
        XCTAssertEqual(ClassGrader.exerciseErrors(in: log, copy: copy, exercises: exercises),
                       ["Labs/ListAdder/Exercise.swift": "12:9: error: cannot find 'numbrs' in scope"])
    }

    /// A renamed type breaks the lab's scenario, not the exercise: the exercise is still to blame.
    func testAnErrorInALabsScenarioIsBlamedOnItsExercise() {
        let copy = URL(fileURLWithPath: "/tmp/grading/ada")
        let log = """
            error: emit-module command failed with exit code 1 (use -v to see invocation)
            /tmp/grading/ada/Labs/AsyncOperation/Scenario.swift:120:33: error: cannot find 'AsyncOperationExerciseFactory' in scope
            """
        XCTAssertEqual(ClassGrader.exerciseErrors(in: log, copy: copy, exercises: exercises),
                       ["Labs/AsyncOperation/Exercise.swift":
                        "Labs/AsyncOperation/Scenario.swift: 120:33: error: cannot find 'AsyncOperationExerciseFactory' in scope"])
    }

    let exercises = ["Labs/AsyncOperation/Exercise.swift", "Labs/ListAdder/Exercise.swift"]

    func testOnlyASignedReportIsBelieved() {
        let key = ChannelAuthentication.newKey()
        let report = GradeReport(command: "c", seed: 1, policy: GradingPolicy(),
                                 integrity: GradeIntegrity(status: .verified, manifestDigest: nil, findings: [], message: "ok"),
                                 labs: [], elapsedSeconds: 1)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let payload = String(decoding: try! encoder.encode(report), as: UTF8.self)
        let signed = ChannelAuthentication.line(tag: ClassGrader.reportTag, payload: payload, key: key)
        XCTAssertNotNil(ClassGrader.signedReport("noise\n" + signed + "\n", key: key))
        XCTAssertNil(ClassGrader.signedReport(ClassGrader.reportTag + payload, key: key), "unsigned")
        XCTAssertNil(ClassGrader.signedReport(signed, key: ChannelAuthentication.newKey()), "another key")
    }
}
