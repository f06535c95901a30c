import LabKit
import RaceLabGrading
import RaceLabHarness

/// One `racelab` command: its declaration (the parser, usage line, help and usage errors come
/// from it), the overview section it is listed in, and what runs it.
struct Command: Sendable {
    let spec: CommandSpec
    let section: Section
    let run: @Sendable (RaceLabCommandLine, ParsedArguments) throws(UsageError) -> Int32

    enum Section: String, CaseIterable {
        case labs
        case student
        case instructor
        case compiler = "the compiler as a detector"
        case yourCode = "your own code"
        case machine = "this machine"
    }
}

extension RaceLabCommandLine {
    static let jobsOption = OptionSpec.value(
        "jobs", "N",
        "children at once (default: RACELAB_JOBS, else four times the cores; children mostly wait, so more than the cores helps)"
    )
    static let labsOption = OptionSpec.value("labs", "a,b", "only these labs (default: every lab)")
    static let seedOption = OptionSpec.value("seed", "S", "base seed (default: random, always printed)")

    /// Every command, declared once, in the order the overview lists them.
    static let commands: [Command] = [
        Command(
            spec: CommandSpec(
                name: "list", summary: "the labs, their bugs and expected detectors",
                options: [.flag("json", "the labs as JSON, with what the compiler says of each")]),
            section: .labs, run: { cli, arguments throws(UsageError) in try cli.list(arguments) }),
        Command(spec: runSpec, section: .labs, run: { cli, arguments throws(UsageError) in try cli.run(arguments) }),
        Command(
            spec: reportSpec, section: .labs, run: { cli, arguments throws(UsageError) in try cli.report(arguments) }),
        Command(
            spec: CommandSpec(
                name: "explain", arguments: "[FILE|-]", positionals: 0...1,
                summary:
                    "a ThreadSanitizer log (from a lab or any program) in plain words; FILE holds the log, - or none reads standard input",
                options: [
                    .flag(
                        "stacks",
                        "also show each whole call chain (TSan's runtime, the C library, Dispatch... marked), allocation and lock stacks"
                    ),
                    .flag("json", "the parsed reports (every stack, every kind) and the text")
                ],
                details: "exit status: 0 explained, 1 no report found, 2 unreadable input."),
            section: .labs, run: { cli, arguments throws(UsageError) in try cli.explain(arguments) }),
        Command(
            spec: checkSpec, section: .student, run: { cli, arguments throws(UsageError) in try cli.check(arguments) }),
        Command(
            spec: hintSpec, section: .student, run: { cli, arguments throws(UsageError) in try cli.hint(arguments) }),
        Command(
            spec: CommandSpec(
                name: "watch", arguments: "[<lab>]", positionals: 0...1,
                summary:
                    "check the lab again each time its exercise is saved (h and Enter: a hint; q and Enter: stop)"),
            section: .student, run: { cli, arguments throws(UsageError) in try cli.watch(arguments) }),
        Command(
            spec: CommandSpec(name: "progress", summary: "every lab: not started, failing, passing"),
            section: .student, run: { cli, arguments throws(UsageError) in try cli.progress(arguments) }),
        Command(
            spec: gradeSpec, section: .instructor,
            run: { cli, arguments throws(UsageError) in try cli.grade(arguments) }),
        Command(
            spec: gradeAllSpec, section: .instructor,
            run: { cli, arguments throws(UsageError) in try cli.gradeAll(arguments) }),
        Command(
            spec: gradeMergeSpec, section: .instructor,
            run: { cli, arguments throws(UsageError) in try cli.gradeMerge(arguments) }),
        Command(
            spec: CommandSpec(
                name: "export", arguments: "[DIR]", positionals: 0...1,
                summary:
                    "DIR: a student kit (no Fixed*.swift; racelab-kit.json and a GitHub Classroom workflow, "
                    + ".github/workflows/racelab.yml; for you, instructor/grade-class.yml: the class on N runners); "
                    + "or, with --gradescope, a Gradescope autograder",
                options: [
                    .value(
                        "gradescope", "FILE.zip", "write a Gradescope autograder: the kit, setup.sh, run_autograder"),
                    .value(
                        "runners", "N",
                        "the kit's instructor/grade-class.yml (a GitHub Actions workflow that grades a class) splits "
                            + "it over N runners (default \(ClassGradingWorkflow.defaultRunners))")
                ]),
            section: .instructor, run: { cli, arguments throws(UsageError) in try cli.export(arguments) }),
        Command(
            spec: benchSpec, section: .instructor,
            run: { cli, arguments throws(UsageError) in try cli.bench(arguments) }),
        Command(
            spec: CommandSpec(
                name: "calibrate",
                summary:
                    "measure how fast each broken variant is caught under stress, into Grading/calibration.json (the grader's stress plans come from it)",
                options: [
                    labsOption, .value("samples", "N", "stress runs per lab (default 40)"),
                    .value("cap", "ITERATIONS", "the most iterations one run may take"), seedOption, jobsOption
                ]),
            section: .instructor, run: { cli, arguments throws(UsageError) in try cli.calibrate(arguments) }),
        Command(
            spec: CommandSpec(
                name: "compiler-check",
                summary:
                    "compile each lab's broken code, exercise and fixes in Swift 6 language mode (against this build's modules; make build first) and store what it says in Grading/compiler.json: the COMPILER column of run, list and the HTML report",
                options: [
                    labsOption, jobsOption, .flag("no-write", "only print (a student kit ships that file)"),
                    .flag("json", "the results as JSON")
                ],
                details:
                    "exit status: 0 every part measured, 1 one could not be (no swiftc, a stale build, code that does not\ncompile even in Swift 5 mode), 2 bad usage."
            ),
            section: .compiler, run: { cli, arguments throws(UsageError) in try cli.compilerCheck(arguments) }),
        Command(
            spec: CommandSpec(
                name: "policy", summary: "what an exercise may not contain, and why; how children are isolated here",
                options: [
                    .flag("markdown", "the rules as a Markdown table"),
                    .flag("isolation", "only how children are isolated on this machine (measured)")
                ]),
            section: .machine, run: { cli, arguments throws(UsageError) in try cli.policy(arguments) }),
        Command(
            spec: CommandSpec(name: "doctor", summary: "what this machine can check: the grader's checks, or fewer"),
            section: .machine, run: { cli, arguments in cli.doctor(arguments) }),
        Command(
            spec: stressSpec, section: .yourCode,
            run: { cli, arguments throws(UsageError) in try cli.stress(arguments) })
    ]

    static let stressSpec = CommandSpec(
        name: "stress", arguments: "-- PROGRAM [ARGS...]", positionals: 1...10_000,
        summary:
            "run any program built with ThreadSanitizer (Swift, C, C++) again and again with RaceLab's preemption at its synchronisation points; the first problem explained, with its seed",
        options: [
            .value("runs", "R", "runs at most (default 100)"),
            seedOption,
            .value("timeout", "SECONDS", "a run still going after this is a hang (default 10)"),
            .flag("plain", "run without RaceLab's preemption (to compare)"),
            .flag("keep-going", "do all the runs, counting how often each problem shows"),
            .value(
                "ignore", "KINDS",
                "kinds of problem that do not count: report,crash,hang,exit (e.g. a known thread leak)"),
            .flag("json", "every run as JSON")
        ],
        details:
            "exit status: 0 no run found a problem, 1 one did (a ThreadSanitizer report, a crash, a hang, an exit status\nother than 0), 2 bad usage (a program that is not built with ThreadSanitizer among it)."
    )

    static let reportSpec = CommandSpec(
        name: "report", arguments: "RESULTS.json", positionals: 1...1,
        summary: "an HTML page from a saved `racelab run --json`",
        options: [.value("html", "FILE", "where to write the page (needed)")])

    static let checkSpec = CommandSpec(
        name: "check", arguments: "<lab>", positionals: 1...1,
        summary: "your exercise through the grader's passes, and what is still wrong, in plain words",
        options: [seedOption, jobsOption])

    static let hintSpec = CommandSpec(
        name: "hint", arguments: "<lab>", positionals: 1...1, summary: "the lesson's hints, one more each time",
        options: [.flag("reset", "start the hints again from the first")])

    /// `--mode`'s help: what each pass does (`PassPolicy.helpText`), then which a variant gets
    /// when no mode is asked for (`LabRunner.defaultModes`).
    static var modeHelp: String {
        let each = RunMode.allCases.map { "\($0.rawValue) \($0.policy.helpText)" }.joined(separator: "; ")
        let demo = LabRunner.defaultModes(for: .broken).map(\.rawValue).joined(separator: " and ")
        return "\(each) (default: broken \(demo); fixed and exercise every mode)"
    }

    static let runSpec = CommandSpec(
        name: "run", arguments: "[<lab>]", positionals: 0...1,
        summary: "run one lab (its broken and fixed variants by default), or every lab as one table",
        options: [
            .flag("all", "every lab, one table (instead of <lab>)"),
            .value("variant", "broken|fixed|exercise|all|NAME", "which variants (default: broken and fixed)"),
            .value("mode", RunMode.choices, modeHelp),
            .value("point", "P:K", "explore only pause P moved to arrival K (a point a failure reported)"),
            .value("iterations", "N", "iterations per run (default: the lab's, per mode)"),
            .value("runs", "N", "child processes per variant and mode (default 1)"),
            .value("seed", "S", "base seed; run k uses S+k (default: random, always printed)"),
            .value("timeout", "SECONDS", "watchdog: kill a child with no progress for this long (default: the lab's)"),
            jobsOption,
            .value(
                "logs", "DIR",
                "keep each child's standard error (TSan's reports, crash stacks) as DIR/<lab>-<variant>-<mode>-<seed>.log"
            ),
            .flag(
                "trace", "show the interleaving (threads side by side) of the first detected or failing run of each row"
            ),
            .value("html", "FILE", "also write one self-contained HTML report (implies --trace)"),
            .flag(
                "profile",
                "after the table, where the time went: one row per lab, variant and mode, the slowest first "
                    + "(--json has each run's profile either way)"
            ),
            .flag("json", "machine-readable output")
        ],
        details: """
            --profile: seconds added up over each row's child processes. WALL their elapsed time; CPU their
              processes' user and system time; START from the spawn until the story began (process start,
              ThreadSanitizer's set-up); STORY the iterations; END from the story's end until the child was gone
              (its result, its exit, ThreadSanitizer's at-exit work). Inside STORY, on the main thread: QUIET
              looks at whether the lab has gone quiet, WAITS the story's own waits (less their quiet looks),
              OTHER the rest. HELD and SLEPT: thread-seconds lab threads were held or paused by the harness, or
              slept for the stress pass; PREEMPT the stress pass's preemption signals. Then the total, and each
              column's share of the total wall time.

            exit status: 0 every expectation met (broken caught, fixed and exercise clean), 1 an expectation
            failed, 2 bad usage or a build without ThreadSanitizer.
            """
    )

    static let gradeSpec = CommandSpec(
        name: "grade", summary: "grade this package's exercises, each through every pass",
        options: [
            labsOption,
            .value("format", "text|json|junit|gradescope", "the report's format (default text)"),
            .value("output", "FILE", "write the report there (default: standard output)"),
            seedOption,
            .value(
                "manifest", "FILE",
                "a trusted kit manifest (racelab-kit.json from racelab export): files changed outside the exercises fail"
            ),
            .value("student", "NAME", "the student's name, as the report gives it"),
            .flag("partial-credit", "each clean pass scores (default: a bug seen in any pass scores the lab 0)"),
            .flag("fail-unless-full", "exit 1 below full marks (CI, GitHub Classroom)"),
            jobsOption,
            .value("from", "REPORT.json", "render a saved json report again, in --format")
        ],
        details:
            "exit status: 0 graded (whatever the score, unless --fail-unless-full), 1 harness failure, 2 bad usage."
    )

    static let gradeAllSpec = CommandSpec(
        name: "grade-all", arguments: "[SUBMISSIONS]", positionals: 0...1,
        summary:
            "grade a class: every sub-folder of SUBMISSIONS is one student's kit, each graded in a copy of the trusted kit",
        options: [
            .value("kit", "KIT", "the trusted kit (default: this package)"),
            .value("output", "DIR", "where the reports go (default grades)"),
            .value("format", "text|json|junit|gradescope", "each student's report format (default text)"),
            labsOption, seedOption, jobsOption,
            .value("workspace", "DIR", "keep the kit's build there between runs"),
            .flag("keep", "keep the temporary workspace"),
            .flag("partial-credit", "each clean pass scores"),
            .flag("prepare", "build the kit into --workspace only (an autograder's set-up), grade nothing"),
            .value(
                "shard", "K/N",
                "grade only share K of N (the entries at places K, K+N, K+2N... of the sorted list), "
                    + "for N runners at once; needs --seed; racelab grade-merge puts the shards together"
            )
        ])

    static let gradeMergeSpec = CommandSpec(
        name: "grade-merge", arguments: "SHARD-DIR...", positionals: 1...10_000,
        summary:
            "put the --output folders of grade-all --shard K/N (every K of one N) together: one summary.csv "
            + "and every report, as grade-all of the whole class writes them",
        options: [.value("output", "DIR", "where the merged reports go (default grades)")],
        details:
            "exit status: 0 merged, 1 merged but a student's grading hit a harness failure (see summary.csv), "
            + "2 bad usage\nor shards that do not fit together (not of one class, one missing or given twice, "
            + "one that did not finish)."
    )

    static let benchSpec = CommandSpec(
        name: "bench", arguments: "corpus|agreement|learners|explain|stress|profile [PATH...]",
        positionals: 1...10_000,
        summary:
            "how well RaceLab judges and explains: corpus (right and wrong fixes), agreement (check beside grade), "
            + "learners (minutes per lab), explain (TSan logs explained whole), stress (how soon racelab stress shows "
            + "a list of programs' bugs, beside plain runs); and how fast: profile (where a run's time goes)",
        options: [
            labsOption, seedOption,
            .value(
                "seeds", "K",
                "corpus: under K base seeds (S, S+10000, S+20000...); stress: K series of runs (default 3)"),
            .value(
                "runs", "R",
                "stress: runs per series and way (default 100); profile: children per variant and mode (default 2)"),
            .value(
                "load", "N[,M...]",
                "corpus: beside N busy-loop processes; several: each in turn, then the files whose verdict flips"),
            jobsOption, .flag("json", "corpus: every condition's grades and the flips, as JSON"),
            .value("user-root", "DIR", "explain: the folder the logs' programs were built from (their own code)")
        ],
        details: """
            bench corpus: grade the grading corpus (Tests/GradingCorpus): valid fixes must score full marks, wrong
              ones nothing; an accuracy table, and with several --seeds or --load conditions the files whose
              verdict flips. Exit 1 on any false accept, false reject or flip.
            bench agreement: every corpus fix judged as check (seed S) and as grade (seed S+1000000) would;
              the pass/fail disagreements.
            bench learners PATH...: minutes per lab on real learners, from their progress files
              (.racelab/progress.json; a folder: its own and each sub-folder's).
            bench explain LOG... --user-root DIR: for each ThreadSanitizer log, whether racelab explain counts
              every report, shows each under the title TSan printed, and names every line of the program's own
              code (under DIR) its stacks start at. Exit 1 when any log is not explained whole.
            bench profile: racelab run --all --runs 2 --profile (--runs, --seed and --jobs passed on), the
              profile also as a Markdown table to paste in the docs (racelab help run: what each column means).
            """)
}
