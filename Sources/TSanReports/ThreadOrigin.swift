/// What kind of thread a report's thread is, from how it was created and what it ran.
enum ThreadOrigin: Equatable {
    case mainThread
    case foundationThread
    /// A Dispatch worker that ran Swift concurrency jobs (tasks, actors): on Linux the
    /// cooperative pool is built on Dispatch's global queues, so its threads look like Dispatch's.
    case concurrencyPool
    case dispatchWorker
    case pthread

    /// The origin of `thread` in `report`, nil when the report does not describe it.
    static func of(_ thread: String, in report: TSanReport) -> ThreadOrigin? {
        if thread == "main thread" { return .mainThread }
        guard let created = report.threads.first(where: { $0.thread == thread }) else { return nil }
        let ran = report.accesses.filter { $0.thread == thread }.flatMap(\.frames) + created.frames
        if ran.contains(where: isConcurrencyRuntime) { return .concurrencyPool }
        if created.frames.contains(where: { $0.function == "_CFThreadCreate" }) { return .foundationThread }
        if created.frames.contains(where: { $0.function.contains("dispatch_") || $0.origin == .dispatch }) {
            return .dispatchWorker
        }
        return .pthread
    }

    /// A frame of Swift concurrency's runtime (the job loop that runs a task's pieces).
    static func isConcurrencyRuntime(_ frame: TSanReport.Frame) -> Bool {
        frame.module?.hasPrefix("libswift_Concurrency") == true || frame.function.hasPrefix("swift::runJob")
            || frame.function.hasPrefix("swift_task_") || frame.function.hasPrefix("swift_job_run")
    }

    var description: String {
        switch self {
        case .mainThread: return "the main thread"
        case .foundationThread: return "a Foundation Thread"
        case .concurrencyPool:
            return
                "a thread of Swift concurrency's pool (it runs tasks and actor jobs; on Linux the pool is Dispatch's worker threads)"
        case .dispatchWorker: return "a Dispatch worker thread (it runs blocks from DispatchQueue or OperationQueue)"
        case .pthread: return "a thread made with pthread_create"
        }
    }
}

extension TSanExplainer {
    /// "Thread T2 is a Foundation Thread, started by the main thread in ListAdderBroken.add(Int),
    /// Broken.swift:18." Nil for the main thread or a thread the report does not describe.
    static func origin(of thread: String?, in report: TSanReport) -> String? {
        guard let thread, let origin = ThreadOrigin.of(thread, in: report), origin != .mainThread,
            let created = report.threads.first(where: { $0.thread == thread })
        else { return nil }
        let creator = TSanReportParser.threadName(in: created.description, after: "created by ").map(who)
        var text = "\(capitalised(thread)) is \(origin.description)"
        if let creator { text += ", started by \(creator)" }
        if let frame = created.frames.first(where: \.isUserCode) { text += " " + place(frame) }
        return text + "."
    }
}
