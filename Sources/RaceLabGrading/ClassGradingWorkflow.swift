import Foundation

/// The instructor's GitHub Actions workflow for a whole class on N runners at once
/// (`instructor/grade-class.yml` in an exported kit): a matrix job per shard,
/// `racelab grade-all submissions --shard K/N`, each shard's folder uploaded as an artifact, then
/// one job that downloads them all and runs `racelab grade-merge`, and uploads the class's grades.
///
/// It is for the instructor's own grading repository (this kit plus a `submissions/` folder), so
/// it sits outside `.github/workflows/`: in the students' copies of the kit it never runs. Outside
/// the manifest too, like the Classroom workflow: grading never reads it.
public struct ClassGradingWorkflow: Sendable {
    public static let path = "instructor/grade-class.yml"
    public static let defaultRunners = 4
    /// GitHub Actions runs at most 256 jobs from one matrix.
    public static let runnerRange = 1...256

    public var runners: Int

    public init(runners: Int = Self.defaultRunners) {
        self.runners = runners
    }

    /// The racelab the kit's set-up built (the folder depends on the build system: asked, not assumed).
    static let racelab = "\"$(swift build --sanitize=thread --show-bin-path)/racelab\""

    /// The workflow: what it is for (comments at the top), when it runs and with what, then its two
    /// jobs. In parts, each as GitHub Actions reads it; the jobs indented under `jobs:` in their own.
    public var yaml: String {
        [explanation, settings, "jobs:", gradeJob, mergeJob].joined(separator: "\n") + "\n"
    }

    /// The shard of the matrix job that runs, as a GitHub Actions expression.
    private static let shard = "${{ matrix.shard }}"

    /// What the file is for and how to use it, as comments.
    private var explanation: String {
        """
        # RaceLab: grade a whole class on \(runners) runners at once (written by racelab export).
        # For the instructor's grading repository, not the students': copy this file to
        # .github/workflows/grade-class.yml in a repository that holds this kit and, in submissions/,
        # one folder per student (their copy of the kit, without its .git folder). Run it from the
        # Actions tab ("Run workflow"). Runner K of \(runners) grades the students at places K, K+\(runners),
        # K+\(2 * runners)... in name order (racelab grade-all --shard K/\(runners)); the last job puts the
        # shards together (racelab grade-merge): one summary.csv and every report, in the artifact
        # "grades". Every shard grades with the same seed: the one you give, or this run's id.
        # More or fewer runners: racelab export DIR --runners N writes this file for N.
        """
    }

    /// Its name, its trigger (by hand, with a seed), its permissions and the seed for every shard.
    private var settings: String {
        """
        name: RaceLab class grading
        on:
          workflow_dispatch:
            inputs:
              seed:
                description: "Base seed, the same for every shard (empty: this run's id)"
                required: false
                default: ""
        permissions:
          contents: read
        env:
          SEED: ${{ inputs.seed || github.run_id }}
        """
    }

    /// One job per shard: grade the shard's students, upload its folder.
    private var gradeJob: String {
        """
          grade:
            name: grade shard \(Self.shard)/\(runners)
            runs-on: ubuntu-22.04
            timeout-minutes: 360
            strategy:
              fail-fast: false
              matrix:
                shard: [\((1...runners).map(String.init).joined(separator: ", "))]
            steps:
              - uses: actions/checkout@v4
              - name: Install Swift and build RaceLab
                run: \(ClassroomWorkflow.setupCommand)
              - name: Grade shard \(Self.shard) of \(runners)
                run: >-
                  \(Self.racelab) grade-all submissions --kit .
                  --shard \(Self.shard)/\(runners) --seed "$SEED" --output grades-shard-\(Self.shard)
              - name: Upload shard \(Self.shard)'s grades
                if: always()
                uses: actions/upload-artifact@v4
                with:
                  name: grades-shard-\(Self.shard)
                  path: grades-shard-\(Self.shard)
                  if-no-files-found: error
                  # A re-run of a failed shard replaces what its first attempt uploaded.
                  overwrite: true
        """
    }

    /// After the shards (also when one failed): download their folders, merge them, upload the class's grades.
    private var mergeJob: String {
        """
          merge:
            name: merge the shards
            needs: grade
            # Also when a shard failed: grade-merge then names the shard that is missing.
            if: ${{ !cancelled() }}
            runs-on: ubuntu-22.04
            timeout-minutes: 90
            steps:
              - uses: actions/checkout@v4
              - name: Install Swift and build RaceLab
                run: \(ClassroomWorkflow.setupCommand)
              - name: Download every shard's grades
                uses: actions/download-artifact@v4
                with:
                  pattern: grades-shard-*
                  path: shards
              - name: Merge the shards
                run: |
                  \(Self.racelab) grade-merge shards/grades-shard-* --output grades
              - name: Upload the class's grades
                if: always()
                uses: actions/upload-artifact@v4
                with:
                  name: grades
                  path: grades
                  overwrite: true
        """
    }
}
