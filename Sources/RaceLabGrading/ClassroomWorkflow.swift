import Foundation

/// The GitHub Classroom workflow a student kit ships (`.github/workflows/racelab.yml`): set-up,
/// then one autograding step per lab (`racelab grade --labs LAB --fail-unless-full`, all of the
/// lab's points or none), then Classroom's reporter. scripts/autograder-e2e.sh runs its steps,
/// read back from the YAML, as a script: that is how RaceLab tests it without GitHub.
///
/// The workflow runs in the student's own repository, which the student controls: its scores
/// are feedback. Marks that count come from `racelab grade-all` over the cloned repositories.
public struct ClassroomWorkflow: Sendable {
    public struct Step: Sendable, Equatable {
        public var lab: String
        public var command: String
        public var points: Int
    }

    public static let path = ".github/workflows/racelab.yml"
    public static let setupCommand = "bash Grading/Classroom/setup.sh"
    /// Minutes per lab step (Classroom's command grader takes whole minutes).
    public static let stepTimeoutMinutes = 10

    public var steps: [Step]

    public init(labs: [String], pointsPerLab: Int) {
        steps = labs.map { Step(lab: $0, command: "bash Grading/Classroom/grade-lab.sh \($0)", points: pointsPerLab) }
    }

    public var yaml: String {
        var lines = [
            "# RaceLab autograding for GitHub Classroom (written by racelab export; do not edit).",
            "# Each lab is one test worth its points: all of them when racelab grade gives the lab full marks.",
            "name: RaceLab",
            "on:",
            "  push:",
            "  workflow_dispatch:",
            "permissions:",
            "  checks: write",
            "  actions: read",
            "  contents: read",
            "jobs:",
            "  grade:",
            "    runs-on: ubuntu-22.04",
            "    timeout-minutes: 90",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - name: Install Swift and build RaceLab",
            "        run: \(Self.setupCommand)"
        ]
        for step in steps {
            lines += [
                "      - name: \(step.lab)",
                "        id: \(step.lab)",
                "        uses: classroom-resources/autograding-command-grader@v1",
                "        with:",
                "          test-name: \(step.lab)",
                "          command: \(step.command)",
                "          timeout: \(Self.stepTimeoutMinutes)",
                "          max-score: \(step.points)"
            ]
        }
        lines += [
            "      - name: Autograding Reporter",
            "        uses: classroom-resources/autograding-grading-reporter@v1",
            "        env:"
        ]
        lines += steps.map { "          \($0.lab.uppercased())_RESULTS: \"${{steps.\($0.lab).outputs.result}}\"" }
        lines += [
            "        with:",
            "          runners: \(steps.map(\.lab).joined(separator: ","))"
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
