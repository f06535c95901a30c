import XCTest

@testable import RaceLabGrading

/// The instructor's workflow that grades a class on N runners (instructor/grade-class.yml).
final class ClassGradingWorkflowTests: XCTestCase {
    func testEachShardIsAMatrixJobAndTheLastJobMerges() {
        let yaml = ClassGradingWorkflow(runners: 3).yaml
        XCTAssertTrue(yaml.contains("\n        shard: [1, 2, 3]\n"), yaml)
        XCTAssertTrue(yaml.contains("run: bash Grading/Classroom/setup.sh\n"))
        XCTAssertTrue(
            yaml.contains(
                """
                          "$(swift build --sanitize=thread --show-bin-path)/racelab" grade-all submissions --kit .
                          --shard ${{ matrix.shard }}/3 --seed "$SEED" --output grades-shard-${{ matrix.shard }}

                """), yaml)
        XCTAssertTrue(
            yaml.contains(
                "          name: grades-shard-${{ matrix.shard }}\n          path: grades-shard-${{ matrix.shard }}\n"))
        XCTAssertTrue(yaml.contains("    needs: grade\n"))
        XCTAssertTrue(yaml.contains("          pattern: grades-shard-*\n          path: shards\n"))
        XCTAssertTrue(
            yaml.contains(
                "\"$(swift build --sanitize=thread --show-bin-path)/racelab\" grade-merge shards/grades-shard-* "
                    + "--output grades\n"
            ))
        XCTAssertTrue(yaml.contains("          name: grades\n          path: grades\n          overwrite: true\n"))
        XCTAssertEqual(
            yaml.components(separatedBy: "overwrite: true\n").count, 3, "a re-run job may upload its artifact again")
        XCTAssertTrue(yaml.contains("  SEED: ${{ inputs.seed || github.run_id }}\n"), "one seed for every shard")
        XCTAssertFalse(yaml.contains("\t"), "YAML indents with spaces")
        XCTAssertTrue(ClassGradingWorkflow(runners: 1).yaml.contains("shard: [1]\n"))
    }

    /// Python's YAML reader, when there is one, reads it as GitHub would: the jobs, the matrix,
    /// the steps' commands.
    func testTheWorkflowIsYAMLWhenPythonCanReadIt() throws {
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        try XCTSkipIf(python == nil, "no python3 on this machine")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-yaml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(ClassGradingWorkflow(runners: 5).yaml.utf8).write(to: folder.appendingPathComponent("w.yml"))
        let script = """
            import json, sys
            try:
                import yaml
            except ImportError:
                sys.exit(3)
            w = yaml.safe_load(open(sys.argv[1]))
            grade, merge = w["jobs"]["grade"], w["jobs"]["merge"]
            print(json.dumps({
                "matrix": grade["strategy"]["matrix"]["shard"],
                "grade": [s.get("run", s.get("uses")) for s in grade["steps"]],
                "needs": merge["needs"],
                "merge": [s.get("run", s.get("uses")) for s in merge["steps"]],
                "dispatch": list(w[True]["workflow_dispatch"]["inputs"])}))
            """
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: python!)
        process.arguments = ["-c", script, folder.appendingPathComponent("w.yml").path]
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try XCTSkipIf(process.terminationStatus == 3, "python3 has no yaml module here")
        XCTAssertEqual(process.terminationStatus, 0)
        struct Read: Decodable {
            let matrix: [Int]
            let grade: [String]
            let needs: String
            let merge: [String]
            let dispatch: [String]
        }
        let read = try JSONDecoder().decode(Read.self, from: data)
        XCTAssertEqual(read.matrix, [1, 2, 3, 4, 5])
        XCTAssertEqual(read.needs, "grade")
        XCTAssertEqual(read.dispatch, ["seed"])
        XCTAssertEqual(
            read.grade,
            [
                "actions/checkout@v4", "bash Grading/Classroom/setup.sh",
                "\"$(swift build --sanitize=thread --show-bin-path)/racelab\" grade-all submissions --kit . "
                    + "--shard ${{ matrix.shard }}/5 --seed \"$SEED\" --output grades-shard-${{ matrix.shard }}",
                "actions/upload-artifact@v4"
            ])
        XCTAssertEqual(
            read.merge,
            [
                "actions/checkout@v4", "bash Grading/Classroom/setup.sh", "actions/download-artifact@v4",
                "\"$(swift build --sanitize=thread --show-bin-path)/racelab\" grade-merge shards/grades-shard-* "
                    + "--output grades\n",
                "actions/upload-artifact@v4"
            ])
    }
}
