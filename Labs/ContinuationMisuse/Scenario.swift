import Foundation
@_spi(LabAuthoring) import LabKit
import Synchronization

/// A place on the map, as the geocoder answers it.
public struct GeoPlace: Sendable, Equatable, CustomStringConvertible {
    public let address: String
    public let latitude: Double
    public let longitude: Double

    public var description: String { "\(address) (\(latitude), \(longitude))" }
}

/// Why a lookup failed.
public enum GeocodeError: Error, Sendable, Equatable {
    /// The server does not know the address.
    case notFound
    /// The geocoder stopped waiting for the server. Its answer may still come later.
    case timedOut
}

/// One lookup in flight, as `LegacyGeocoder.lookup` returns it.
public final class GeocodeRequest: Sendable {
    let address: String
    /// The app's two callbacks, until the story has delivered what it will (then let go of, as a
    /// finished request lets go of its callbacks).
    private let callbacks: Mutex<Callbacks?>
    // Where this request's deliveries stand. Relaxed: the geocoder's threads order nothing TSan
    // sees through them, so a race between the app's two callbacks stays a race.
    private let cancelled = Atomic<Bool>(false)
    private let cancelling = Atomic<Bool>(false)
    private let answerOnItsWay = Atomic<Bool>(false)
    private let answerEnded = Atomic<Bool>(false)
    private let errorDelivered = Atomic<Bool>(false)

    struct Callbacks {
        let onResult: @Sendable (GeoPlace) -> Void
        let onError: @Sendable (GeocodeError) -> Void
    }

    init(address: String, callbacks: Callbacks) {
        self.address = address
        self.callbacks = Mutex(callbacks)
    }

    /// Stops the callbacks that have not begun yet. An answer already on its way (its thread is
    /// past the check) cannot be called back: it still comes, and cancel() returns once it has.
    public func cancel() {
        Checkpoint.hit("geocoder.cancel")
        cancelling.store(true, ordering: .relaxed)
        if answerOnItsWay.load(ordering: .relaxed) {
            Self.wait { self.answerEnded.load(ordering: .relaxed) }
        }
        cancelled.store(true, ordering: .relaxed)
    }

    /// The server answers: `onResult`, on a network thread of its own. `late`: the answer is on
    /// its way, and lands once the time-out has been delivered or the app is cancelling.
    func answer(_ place: GeoPlace, late: Bool = false) {
        guard let onResult = callbacks.withLock({ $0?.onResult }) else { return }
        Thread.detachNewThread { [self] in
            Checkpoint.hit("geocoder.answer")
            guard !cancelled.load(ordering: .relaxed) else {
                answerEnded.store(true, ordering: .relaxed)
                Checkpoint.hit("geocoder.dropped")
                return
            }
            answerOnItsWay.store(true, ordering: .relaxed)
            if late {
                Self.wait { self.errorDelivered.load(ordering: .relaxed) || self.cancelling.load(ordering: .relaxed) }
            }
            onResult(place)
            answerEnded.store(true, ordering: .relaxed)
            Checkpoint.hit("geocoder.answered")
        }
    }

    /// The lookup fails: `onError`, on the timer's thread (a time-out) or the network's.
    /// `whileAnswerIsOnItsWay`: it fires once the answer is on its way, and its thread stays until
    /// the answer has landed (both callbacks' threads alive, for ThreadSanitizer to compare).
    func fail(_ error: GeocodeError, whileAnswerIsOnItsWay: Bool = false) {
        guard let onError = callbacks.withLock({ $0?.onError }) else { return }
        Thread.detachNewThread { [self] in
            if whileAnswerIsOnItsWay {
                Self.wait { self.answerOnItsWay.load(ordering: .relaxed) || self.answerEnded.load(ordering: .relaxed) }
            }
            Checkpoint.hit("geocoder.error")
            guard !cancelled.load(ordering: .relaxed) else {
                Checkpoint.hit("geocoder.dropped")
                return
            }
            onError(error)
            errorDelivered.store(true, ordering: .relaxed)
            Checkpoint.hit("geocoder.errored")
            if whileAnswerIsOnItsWay { Self.wait { self.answerEnded.load(ordering: .relaxed) } }
        }
    }

    /// Everything this request will ever deliver has been sent: it lets go of the callbacks (and of
    /// whatever they hold, a continuation included).
    func finish() { callbacks.withLock { $0 = nil } }

    /// The geocoder's threads wait for one another by polling, at most 2 s of the lab's own time
    /// (a callback that never returns does not keep them for ever).
    private static func wait(until condition: () -> Bool) {
        var deadline = LabDeadline(seconds: 2, ownTime: true)
        while !condition() && !deadline.hasPassed() { usleep(100) }
    }
}

/// The old callback API the app wraps (the scenario's own, like a vendor's SDK). Its
/// documentation: `onResult` with the place, or `onError` with why not, each on a thread of the
/// geocoder's. After a time-out (`onError(.timedOut)`) the server's answer may still arrive, and
/// then `onResult` is called too: the old API never promised a single call.
public final class LegacyGeocoder: Sendable {
    private let requests = Mutex<[GeocodeRequest]>([])

    public init() {}

    /// Starts looking `address` up; the callbacks come later, on the geocoder's threads.
    @discardableResult
    public func lookup(
        _ address: String, onResult: @escaping @Sendable (GeoPlace) -> Void,
        onError: @escaping @Sendable (GeocodeError) -> Void
    ) -> GeocodeRequest {
        let request = GeocodeRequest(address: address, callbacks: .init(onResult: onResult, onError: onError))
        requests.withLock { $0.append(request) }
        Checkpoint.hit("geocoder.lookup")
        return request
    }

    /// The newest lookup of `address`, if the app made one.
    func request(for address: String) -> GeocodeRequest? {
        requests.withLock { $0.last { $0.address == address } }
    }
}

/// What the app offers: an async wrapper around the geocoder.
public protocol ContinuationMisuseController: AnyObject, Sendable {
    /// The place at `address`; throws the geocoder's `GeocodeError` when the lookup fails.
    func place(for address: String) async throws -> GeoPlace
}

/// How one search ended for its caller (harness side).
enum SearchOutcome: Sendable, Equatable, CustomStringConvertible {
    case found(GeoPlace)
    case failed(GeocodeError)
    case otherError(String)

    var description: String {
        switch self {
        case .found(let place): "returned \(place)"
        case .failed(let error): "threw GeocodeError.\(error)"
        case .otherError(let error): "threw \(error)"
        }
    }
}

/// Every search's outcomes, as the callers saw them. Written by the callers' tasks; the story
/// reads it only once a search's callbacks have all been delivered (a lock read earlier would
/// order the first callback's thread before the second one's, and hide a race between them).
final class SearchLog: Sendable {
    private let outcomes = Mutex<[Int: [SearchOutcome]]>([:])

    func record(_ outcome: SearchOutcome, search: Int) {
        outcomes.withLock { $0[search, default: []].append(outcome) }
        Checkpoint.hit("search.returned")
    }

    func outcomes(of search: Int) -> [SearchOutcome] { outcomes.withLock { $0[search] ?? [] } }
}

/// What the server does with one search.
enum ServerReply: CaseIterable {
    /// It answers: `onResult`.
    case answers
    /// It does not know the address: `onError(.notFound)`.
    case unknownAddress
    /// It never answers: the geocoder times out, `onError(.timedOut)`, and that is all.
    case timesOutSilently
    /// The geocoder times out, `onError(.timedOut)`, and then the answer comes after all:
    /// `onResult` too.
    case timesOutThenAnswers

    /// What its caller may see: exactly one of these, once.
    func acceptable(for place: GeoPlace) -> [SearchOutcome] {
        switch self {
        case .answers: [.found(place)]
        case .unknownAddress: [.failed(.notFound)]
        case .timesOutSilently: [.failed(.timedOut)]
        // The time-out came first, but the answer is true too: either may be the one returned.
        case .timesOutThenAnswers: [.failed(.timedOut), .found(place)]
        }
    }
}

public enum ContinuationMisuseLab: LabScenario {
    public static let info = LabInfo(
        id: "continuation-misuse",
        title: "A callback API wrapped in a continuation: resumed twice, or never",
        source: "RaceLab's Swift concurrency track (no source article): the contract of CheckedContinuation, \"resume exactly once\", against an old API that calls back twice after a time-out",
        bug: "the async wrapper resumes its continuation in both of the old API's callbacks: after a time-out the late answer resumes it a second time, and the runtime stops the program",
        invariants: [
            "every search returns exactly once, with its place or with the error that ended it (after a time-out and a late answer, either one)",
            "no search is left waiting: once the geocoder has delivered everything it will, every caller has returned",
            "the program is not stopped by the runtime (a continuation resumed twice is a fatal error)",
        ],
        expectedDetectors: [.crash, .invariant, .tsan],
        defaultIterations: [.scripted: 3, .stress: 40],
        runsTasks: true
    )

    public static let variants: [LabVariant<LegacyGeocoder, ContinuationMisuseController>] = [
        LabVariant(.broken) { ContinuationMisuseBroken(geocoder: $0) },
    ]

    /// The scripted story: one search of each kind, the late answer last (a variant that
    /// resumes twice stops the program there, after the other checks have been made).
    static let scriptedSearches: [(String, ServerReply)] = [
        ("12 Harbour Road", .answers),
        ("1 Nowhere Lane", .unknownAddress),
        ("3 Quiet Close", .timesOutSilently),
        ("7 Slow Street", .timesOutThenAnswers),
    ]

    public static func play(_ variant: LabVariant<LegacyGeocoder, ContinuationMisuseController>, in run: ScenarioRun) {
        let geocoder = LegacyGeocoder()
        let app = variant.make(geocoder)
        let log = SearchLog()
        let searches =
            run.mode == .scripted
            ? scriptedSearches
            : (1...5).map { number in
                ("\(number) Random Row", ServerReply.allCases[Int(run.random.next(upperBound: UInt64(4)))])
            }
        for (number, (address, reply)) in searches.enumerated() {
            let search = Search(number: number, address: address, reply: reply)
            search.play(app: app, geocoder: geocoder, log: log, in: run)
        }
    }
}

/// One search: the user asks, the server replies as told, and the caller must return once.
struct Search {
    let number: Int
    let address: String
    let reply: ServerReply

    /// Where the server says the address is.
    var place: GeoPlace {
        GeoPlace(address: address, latitude: 51 + Double(number) / 10, longitude: -Double(number) / 10)
    }

    /// Callback threads that have ended: delivered, or dropped after a cancel.
    static var deliveriesEnded: Int {
        Checkpoint.hits("geocoder.answered") + Checkpoint.hits("geocoder.errored") + Checkpoint.hits("geocoder.dropped")
    }

    func play(app: ContinuationMisuseController, geocoder: LegacyGeocoder, log: SearchLog, in run: ScenarioRun) {
        let lookupsBefore = Checkpoint.hits("geocoder.lookup")
        let returnsBefore = Checkpoint.hits("search.returned")
        let deliveriesBefore = Self.deliveriesEnded
        userSearches(app: app, log: log, in: run)
        if run.waitUntilDoneOrQuiet(timeout: 5, { Checkpoint.hits("geocoder.lookup") > lookupsBefore }),
            let request = geocoder.request(for: address)
        {
            let deliveries = serverReplies(to: request, in: run)
            // Every callback has come (or was dropped) and the caller has returned, or the app has
            // gone quiet: then nothing is left that could make it return.
            run.waitUntilDoneOrQuiet(timeout: 5) {
                Self.deliveriesEnded - deliveriesBefore >= deliveries
                    && Checkpoint.hits("search.returned") > returnsBefore
            }
            request.finish()
        } else {
            run.waitUntilDoneOrQuiet(timeout: 5) { Checkpoint.hits("search.returned") > returnsBefore }
        }
        check(log.outcomes(of: number), lookedUp: geocoder.request(for: address) != nil, in: run)
    }

    /// The user types the address: a task of the app's awaits the place.
    func userSearches(app: ContinuationMisuseController, log: SearchLog, in run: ScenarioRun) {
        let (number, address) = (self.number, self.address)
        run.user("searches for \(address)") {
            Task.detached {
                do {
                    log.record(.found(try await app.place(for: address)), search: number)
                } catch let error as GeocodeError {
                    log.record(.failed(error), search: number)
                } catch {
                    log.record(.otherError("\(error)"), search: number)
                }
            }
        }
    }

    /// The geocoder's callbacks for this search, as the story decides; returns how many were sent.
    func serverReplies(to request: GeocodeRequest, in run: ScenarioRun) -> Int {
        switch reply {
        case .answers:
            request.answer(place)
            return 1
        case .unknownAddress:
            request.fail(.notFound)
            return 1
        case .timesOutSilently:
            request.fail(.timedOut)
            return 1
        case .timesOutThenAnswers:
            lateAnswer(to: request, in: run)
            return 2
        }
    }

    /// The time-out, then the answer. Scripted: the answer is already on its way when the time-out
    /// fires, and lands once the time-out has been delivered, or while the app cancels the
    /// request (an answer on its way cannot be called back). Stress: both at random moments,
    /// either first.
    func lateAnswer(to request: GeocodeRequest, in run: ScenarioRun) {
        switch run.mode {
        case .scripted:
            request.answer(place, late: true)
            request.fail(.timedOut, whileAnswerIsOnItsWay: true)
        case .stress:
            let answerFirst = run.random.next(upperBound: UInt64(4)) == 0
            if answerFirst { request.answer(place) } else { request.fail(.timedOut) }
            run.randomPause(upTo: 2)
            if answerFirst { request.fail(.timedOut) } else { request.answer(place) }
        }
    }

    /// "Every search returns exactly once", as its caller saw it.
    func check(_ outcomes: [SearchOutcome], lookedUp: Bool, in run: ScenarioRun) {
        let acceptable = reply.acceptable(for: place)
        let what = "the search for \"\(address)\" (\(reply.story))"
        if outcomes.isEmpty {
            run.fail(
                "\(what) never returned: its caller is still waiting, and will wait for ever"
                    + (lookedUp ? " (no callback resumed the continuation)" : " (the geocoder was never asked)"))
        } else if outcomes.count > 1 {
            run.fail("\(what) returned \(outcomes.count) times: \(outcomes.map(\.description).joined(separator: ", "))")
        } else if !acceptable.contains(outcomes[0]) {
            run.fail(
                "\(what) \(outcomes[0]); it should have \(acceptable.map(\.description).joined(separator: " or "))")
        }
    }
}

extension ServerReply {
    /// What happened, for a failure message.
    var story: String {
        switch self {
        case .answers: "the server answered"
        case .unknownAddress: "the server does not know the address"
        case .timesOutSilently: "the geocoder timed out and no answer ever came"
        case .timesOutThenAnswers: "the geocoder timed out, then the late answer came"
        }
    }
}
