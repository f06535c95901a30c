import RaceLabGrading
import RaceLabHarness

/// One `racelab` command: its declaration (the parser, usage line, help and usage errors come
/// from it), the overview section it is listed in, and what runs it.
///
/// Each command declares its options once, as symbols beside the code that reads them (an enum
/// named for the command: `RunCommand.runs`, `RunCommand.spec`), and reads them with those
/// symbols (`try arguments[RunCommand.runs]`): a misspelt option does not compile.
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
    /// Every command, in the order the overview lists them.
    static let commands: [Command] = [
        Command(
            spec: ListCommand.spec, section: .labs,
            run: { cli, arguments throws(UsageError) in try cli.list(arguments) }
        ),
        Command(
            spec: RunCommand.spec, section: .labs, run: { cli, arguments throws(UsageError) in try cli.run(arguments) }),
        Command(
            spec: ReportCommand.spec, section: .labs,
            run: { cli, arguments throws(UsageError) in try cli.report(arguments) }),
        Command(
            spec: ExplainCommand.spec, section: .labs,
            run: { cli, arguments throws(UsageError) in try cli.explain(arguments) }),
        Command(
            spec: CheckCommand.spec, section: .student,
            run: { cli, arguments throws(UsageError) in try cli.check(arguments) }),
        Command(
            spec: HintCommand.spec, section: .student,
            run: { cli, arguments throws(UsageError) in try cli.hint(arguments) }),
        Command(
            spec: WatchCommand.spec, section: .student,
            run: { cli, arguments throws(UsageError) in try cli.watch(arguments) }),
        Command(
            spec: ProgressCommand.spec, section: .student,
            run: { cli, arguments throws(UsageError) in try cli.progress(arguments) }),
        Command(
            spec: GradeCommand.spec, section: .instructor,
            run: { cli, arguments throws(UsageError) in try cli.grade(arguments) }),
        Command(
            spec: GradeAllCommand.spec, section: .instructor,
            run: { cli, arguments throws(UsageError) in try cli.gradeAll(arguments) }),
        Command(
            spec: GradeMergeCommand.spec, section: .instructor,
            run: { cli, arguments throws(UsageError) in try cli.gradeMerge(arguments) }),
        Command(
            spec: ExportCommand.spec, section: .instructor,
            run: { cli, arguments throws(UsageError) in try cli.export(arguments) }),
        Command(
            spec: BenchCommand.spec, section: .instructor,
            run: { cli, arguments throws(UsageError) in try cli.bench(arguments) }),
        Command(
            spec: CalibrateCommand.spec, section: .instructor,
            run: { cli, arguments throws(UsageError) in try cli.calibrate(arguments) }),
        Command(
            spec: CompilerCheckCommand.spec, section: .compiler,
            run: { cli, arguments throws(UsageError) in try cli.compilerCheck(arguments) }),
        Command(
            spec: PolicyCommand.spec, section: .machine,
            run: { cli, arguments throws(UsageError) in try cli.policy(arguments) }),
        Command(spec: DoctorCommand.spec, section: .machine, run: { cli, arguments in cli.doctor(arguments) }),
        Command(
            spec: StressCommand.spec, section: .yourCode,
            run: { cli, arguments throws(UsageError) in try cli.stress(arguments) })
    ]
}
