import Foundation

/// `racelab grade-all`: grades a folder of submissions (one sub-folder per student, each a copy
/// of the kit with edited exercises). For each: the tamper check against the instructor's kit
/// (a tampered submission is not even built), a copy in a scratch folder, its own TSan build,
/// its own `racelab grade` (whose report comes back signed with a key only this process knows),
/// one report per student and a line in `summary.csv`.
public struct ClassGrader {
    public struct Settings: Sendable {
        public var submissions: URL
        /// The kit as handed out: its racelab-kit.json is the trusted manifest, and its exercise
        /// files replace ones that do not compile.
        public var kit: URL
        public var output: URL
        public var format: GradeFormat
        public var labs: [String]?
        public var seed: UInt64
        /// Keep each scratch copy (and its build) instead of deleting it.
        public var keep = false
        public var swift = "swift"
        public var buildTimeout: Double = 1800
        public var gradeTimeout: Double = 3600

        public init(submissions: URL, kit: URL, output: URL, format: GradeFormat, labs: [String]?, seed: UInt64) {
            self.submissions = submissions
            self.kit = kit
            self.output = output
            self.format = format
            self.labs = labs
            self.seed = seed
        }
    }

    public struct StudentResult: Sendable {
        public enum Status: String, Sendable {
            case graded, tampered
            case buildFailed = "build-failed"
            /// The harness failed (no package found, racelab could not run, unreadable report).
            case error
        }

        public var student: String
        public var status: Status
        public var report: GradeReport?
        public var note: String
        public var reportFile: URL?
        public var elapsedSeconds: Double
    }

    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    public let settings: Settings
    public let registry: LabRegistry
    public let trusted: KitManifest
    let policy = GradingPolicy()

    public init(settings: Settings, registry: LabRegistry) throws(SetupError) {
        self.settings = settings
        self.registry = registry
        do {
            trusted = try KitManifest.read(from: settings.kit.appendingPathComponent(KitManifest.fileName))
        } catch {
            throw SetupError(description: "no readable \(KitManifest.fileName) in '\(settings.kit.path)': give --kit the folder racelab export wrote")
        }
    }

    /// The student folders, sorted by name.
    public static func submissions(in folder: URL) -> [(String, URL)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
            return (name, url)
        }
    }

    /// The package inside a submission: the folder itself, or its only sub-folder that is one
    /// (an unpacked archive).
    static func packageRoot(in submission: URL) -> URL? {
        if PackageRoot.isPackage(submission) { return submission }
        let inner = submissions(in: submission).map(\.1).filter(PackageRoot.isPackage)
        return inner.count == 1 ? inner[0] : nil
    }

    // MARK: One student

    public func grade(student: String, submission: URL, scratchRoot: URL, onPhase: (String) -> Void) -> StudentResult {
        let started = Date()
        func finish(_ status: StudentResult.Status, _ report: GradeReport?, _ note: String) -> StudentResult {
            var result = StudentResult(student: student, status: status, report: report, note: note, reportFile: nil,
                                       elapsedSeconds: Date().timeIntervalSince(started))
            if let report { result.reportFile = write(report, for: student) }
            return result
        }
        guard let root = Self.packageRoot(in: submission) else {
            return finish(.error, nil, "no Swift package (Package.swift and Labs/) in \(submission.path)")
        }
        onPhase("tamper check")
        let labs = selectedLabs()
        let integrity = Grader.integrity(of: root, trusted: trusted)
        if integrity.status == .tampered {
            let grader = Grader(executable: URL(fileURLWithPath: "/nonexistent"), policy: policy, seed: settings.seed)
            let report = grader.report(labs: labs, integrity: integrity, calibrations: CalibrationFile.read(packageAt: settings.kit),
                                       command: "racelab grade-all", student: student)
            return finish(.tampered, report, integrity.message)
        }

        let copy = scratchRoot.appendingPathComponent(student)
        defer { if !settings.keep { try? FileManager.default.removeItem(at: copy) } }
        onPhase("copying")
        do {
            try copyPackage(from: root, to: copy)
        } catch {
            return finish(.error, nil, "could not copy the submission: \(error.localizedDescription)")
        }

        onPhase("building")
        let buildLog = settings.output.appendingPathComponent("\(student).build.log")
        var build = run(["/usr/bin/env", settings.swift, "build", "--sanitize=thread", "--manifest-cache", "none"],
                        in: copy, log: buildLog, timeout: settings.buildTimeout) { onPhase("building \(Self.duration($0))") }
        var notCompiled: [String: String] = [:]  // lab id -> first error line
        if build.status != 0 {
            // Exercises that do not compile are replaced by the kit's originals (graded 0), so
            // one broken file does not cost every other lab.
            let log = (try? String(contentsOf: buildLog, encoding: .utf8)) ?? ""
            let broken = Self.exerciseErrors(in: log, copy: copy, exercises: trusted.editable)
            if !broken.isEmpty && broken.keys.allSatisfy({ trusted.editable.contains($0) }) {
                for (path, error) in broken {
                    try? FileManager.default.removeItem(at: copy.appendingPathComponent(path))
                    try? FileManager.default.copyItem(at: settings.kit.appendingPathComponent(path), to: copy.appendingPathComponent(path))
                    let folder = path.split(separator: "/").dropFirst().first.map(String.init) ?? ""
                    if let lab = registry.labs.first(where: { $0.info.folder.lastPathComponent == folder }) { notCompiled[lab.id] = error }
                }
                onPhase("rebuilding with the kit's exercise for \(notCompiled.keys.sorted().joined(separator: ", "))")
                build = run(["/usr/bin/env", settings.swift, "build", "--sanitize=thread", "--manifest-cache", "none"],
                            in: copy, log: buildLog, timeout: settings.buildTimeout, append: true) { onPhase("rebuilding \(Self.duration($0))") }
            }
        }
        guard build.status == 0 else {
            let log = (try? String(contentsOf: buildLog, encoding: .utf8)) ?? ""
            let firstError = log.split(separator: "\n").first { $0.contains("error:") }.map(String.init) ?? "see \(buildLog.lastPathComponent)"
            let grader = Grader(executable: URL(fileURLWithPath: "/nonexistent"), policy: policy, seed: settings.seed)
            var report = grader.report(labs: [], integrity: integrity, calibrations: nil, command: "racelab grade-all", student: student)
            report.labs = labs.compactMap { lab in
                Grader.exercise(of: lab).map {
                    grader.notGraded(lab, variant: $0, stress: StressPlan.make(lab, calibration: nil, policy: policy), status: .failed,
                                     reason: "the submission does not build: \(firstError)")
                }
            }
            report.maxScore = report.labs.map(\.maxScore).reduce(0, +)
            return finish(.buildFailed, report, build.timedOut ? "the build timed out" : "build failed: \(firstError)")
        }

        onPhase("grading")
        let key = ChannelAuthentication.newKey()
        var arguments = [copy.appendingPathComponent(".build/debug/racelab").path, "grade", "--format", "json",
                         "--manifest", settings.kit.appendingPathComponent(KitManifest.fileName).path,
                         "--student", student, "--seed", String(settings.seed), ChannelAuthentication.stdinOption]
        if let labs = settings.labs { arguments += ["--labs", labs.joined(separator: ",")] }
        let gradeLog = copy.appendingPathComponent(".racelab-grade.stderr")
        let graded = run(arguments, in: copy, log: gradeLog, timeout: settings.gradeTimeout,
                         stdin: Data((SHA256.hexString(key) + "\n").utf8), captureStdout: true) { onPhase("grading \(Self.duration($0))") }
        guard var report = Self.signedReport(graded.stdout, key: key) else {
            let stderr = ((try? String(contentsOf: gradeLog, encoding: .utf8)) ?? "").split(separator: "\n").suffix(3).joined(separator: " | ")
            let forged = graded.stdout.contains(Self.reportTag)
            return finish(forged ? .tampered : .error, nil,
                          forged ? "the grade report failed authentication (forged?)"
                                 : "racelab grade exited \(graded.status) without a report" + (stderr.isEmpty ? "" : ": \(stderr)"))
        }
        for (id, error) in notCompiled {
            guard let index = report.labs.firstIndex(where: { $0.lab == id }) else { continue }
            report.labs[index].score = 0
            report.labs[index].status = .failed
            for pass in report.labs[index].passes.indices { report.labs[index].passes[pass].score = 0 }
            report.labs[index].message = "\(id): 0/\(Grader.points(report.labs[index].maxScore)), \(report.labs[index].exerciseFile) does not compile: \(error). The kit's original exercise was graded in its place."
        }
        report.score = report.labs.map(\.score).reduce(0, +)
        if let failure = report.harnessFailure { return finish(.error, report, "harness failure: \(failure)") }
        let note = notCompiled.isEmpty ? "" : "did not compile: \(notCompiled.keys.sorted().joined(separator: ", "))"
        return finish(.graded, report, note)
    }

    // MARK: Pieces

    func selectedLabs() -> [Lab] {
        guard let ids = settings.labs else { return registry.labs }
        return registry.labs.filter { ids.contains($0.id) }
    }

    func copyPackage(from root: URL, to copy: URL) throws {
        let fileManager = FileManager.default
        try? fileManager.removeItem(at: copy)
        for path in KitManifest.packageFiles(under: root) + [KitManifest.fileName] {
            let source = root.appendingPathComponent(path)
            guard fileManager.fileExists(atPath: source.path) else { continue }
            let target = copy.appendingPathComponent(path)
            try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contentsOf: source).write(to: target)
        }
    }

    func write(_ report: GradeReport, for student: String) -> URL? {
        let url = settings.output.appendingPathComponent("\(student).\(settings.format.fileExtension)")
        return (try? Data(settings.format.render(report).utf8).write(to: url)) == nil ? nil : url
    }

    /// The exercise files to blame for the compiler errors in `log`, with the first error of
    /// each. An error in another file of a lab's folder (its scenario, when the exercise renamed
    /// a type the scenario uses) is blamed on that lab's exercises: after the tamper check they
    /// are the only files there that differ from the kit.
    static func exerciseErrors(in log: String, copy: URL, exercises: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for line in log.split(separator: "\n") where line.contains(": error:") {
            let path = String(line.prefix { $0 != ":" })
            let relative = PackageRoot.relative(URL(fileURLWithPath: path).standardizedFileURL.path, to: copy)
            let parts = relative.split(separator: "/")
            guard parts.count == 3, parts[0] == "Labs" else { continue }
            let error = String(line.dropFirst(path.count + 1)).trimmingCharacters(in: .whitespaces)
            let blamed = KitManifest.isExercise(relative)
                ? [relative] : exercises.filter { $0.hasPrefix("Labs/\(parts[1])/") }
            for exercise in blamed where out[exercise] == nil {
                out[exercise] = exercise == relative ? error : "\(relative): \(error)"
            }
        }
        return out
    }

    static let reportTag = "RACELAB-GRADE "

    /// The report from `racelab grade --auth-stdin`'s signed line; nil when absent or not signed
    /// with `key`.
    static func signedReport(_ stdout: String, key: [UInt8]) -> GradeReport? {
        for line in stdout.split(separator: "\n") where line.hasPrefix(reportTag) {
            let (signature, payload) = ChannelAuthentication.split(line.dropFirst(reportTag.count))
            guard let signature, ChannelAuthentication.isValid(signature: signature, of: String(payload), key: key) else { return nil }
            return GradeJSON.decode(String(payload))
        }
        return nil
    }

    struct ProcessResult {
        var status: Int32
        var stdout: String
        var timedOut: Bool
    }

    /// Runs a command with its stderr (and stdout, unless captured) going to `log`.
    func run(_ arguments: [String], in directory: URL, log: URL, timeout: Double, append: Bool = false,
             stdin: Data? = nil, captureStdout: Bool = false, tick: (Double) -> Void) -> ProcessResult {
        let fileManager = FileManager.default
        if !append || !fileManager.fileExists(atPath: log.path) { _ = fileManager.createFile(atPath: log.path, contents: nil) }
        guard let logHandle = FileHandle(forWritingAtPath: log.path) else { return ProcessResult(status: -1, stdout: "", timedOut: false) }
        defer { try? logHandle.close() }
        _ = try? logHandle.seekToEnd()
        let outFile = directory.appendingPathComponent(".racelab-grade.stdout")
        _ = fileManager.createFile(atPath: outFile.path, contents: nil)
        guard let outHandle = FileHandle(forWritingAtPath: outFile.path) else { return ProcessResult(status: -1, stdout: "", timedOut: false) }
        defer { try? outHandle.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.currentDirectoryURL = directory
        process.standardError = logHandle
        process.standardOutput = captureStdout ? outHandle : logHandle
        let input = Pipe()
        if let stdin {
            // Before the process exists (the key is small): no SIGPIPE if it never reads.
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do { try process.run() } catch {
            try? logHandle.write(contentsOf: Data("cannot run \(arguments[0]): \(error)\n".utf8))
            return ProcessResult(status: -1, stdout: "", timedOut: false)
        }
        let started = Date()
        var timedOut = false
        while exited.wait(timeout: .now() + 1) == .timedOut {
            let elapsed = Date().timeIntervalSince(started)
            tick(elapsed)
            if elapsed > timeout {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
                break
            }
        }
        let stdout = captureStdout ? ((try? String(contentsOf: outFile, encoding: .utf8)) ?? "") : ""
        try? fileManager.removeItem(at: outFile)
        return ProcessResult(status: timedOut ? -1 : process.terminationStatus, stdout: stdout, timedOut: timedOut)
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds)
        return whole < 60 ? "\(whole)s" : "\(whole / 60)m\(String(format: "%02d", whole % 60))s"
    }

    // MARK: The summary

    /// `summary.csv`: one row per student.
    public static func summaryCSV(_ results: [StudentResult], labs: [String]) -> String {
        var rows = [(["student", "status", "score", "max_score"] + labs + ["seconds", "note"]).map(csv).joined(separator: ",")]
        for result in results {
            let report = result.report
            var cells = [result.student, result.status.rawValue,
                         report.map { Grader.points($0.score) } ?? "0", report.map { Grader.points($0.maxScore) } ?? ""]
            for lab in labs { cells.append(report?.labs.first { $0.lab == lab }.map { Grader.points($0.score) } ?? "") }
            cells += [String(format: "%.0f", result.elapsedSeconds), result.note]
            rows.append(cells.map(csv).joined(separator: ","))
        }
        return rows.joined(separator: "\n") + "\n"
    }

    static func csv(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
