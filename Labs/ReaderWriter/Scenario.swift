import Foundation
@_spi(LabAuthoring) import LabKit

/// A person's name on the shared contact card: two fields that only make sense together.
public struct ReaderWriterName: Hashable, CustomStringConvertible {
    public let first: String
    public let last: String

    public init(_ first: String, _ last: String) {
        self.first = first
        self.last = last
    }

    public var description: String { "\(first) \(last)" }

    /// The name with anything unprintable escaped: a torn read can even tear one string.
    var printable: String {
        description.unicodeScalars.map { $0.value >= 32 && $0.value < 127 ? String($0) : $0.escaped(asASCII: true) }.joined()
    }
}

/// The slow part of a rename: storing one field takes a while (in a real app, validation,
/// formatting, a write to disk). Every field stored is a checkpoint "card.field": between the
/// first name and the last name the card is half renamed. Stateless, so any thread may use it.
public final class ReaderWriterTypist: Sendable {
    public init() {}

    public func type(_ field: String) -> String {
        Checkpoint.hit("card.field")
        return field
    }
}

/// What each reader-writer variant gets from the harness.
public struct ReaderWriterEnvironment {
    public let initialName: ReaderWriterName
    public let typist: ReaderWriterTypist
}

/// The card as every variant must offer it. `rename` is called on the main thread and may
/// finish later; `currentName` is called from any thread and returns the whole name.
public protocol ReaderWriterController: AnyObject {
    func rename(to name: ReaderWriterName)
    func currentName() -> ReaderWriterName
}

/// Every name the reader threads saw. Harness-side: the main thread looks at it only once the
/// scenario has told the readers to stop, and the card's queue never touches it, so its lock
/// cannot order a write on the card against a read (the race TSan must be free to see).
final class ReaderWriterSightings: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [ReaderWriterName] = []
    private var readersDone = 0

    func saw(_ name: ReaderWriterName) { lock.withLock { seen.append(name) } }
    var all: [ReaderWriterName] { lock.withLock { seen } }
    var finishedReaders: Int { lock.withLock { readersDone } }

    /// A reader on its own thread: it looks at the card up to `reads` times (resting a while
    /// between looks, if asked), until the scenario hits "card.done". Each look is followed by the
    /// checkpoint "card.glanced" (a random delay in stress mode), so the main thread can count the
    /// reader's looks without any lock or signal.
    func startReader(of card: ReaderWriterController, reads: Int, restMicroseconds: UInt32 = 0) {
        Thread.detachNewThread {
            var looks = 0
            while looks < reads, Checkpoint.hits("card.done") == 0 {
                looks += 1
                self.saw(card.currentName())
                Checkpoint.hit("card.glanced")
                if restMicroseconds > 0 { usleep(restMicroseconds) }
            }
            self.lock.withLock { self.readersDone += 1 }
        }
    }
}

public enum ReaderWriterLab: LabScenario {
    public static let info = LabInfo(
        id: "reader-writer",
        title: "Readers and a writer on a concurrent queue",
        source: "source article 002 (threads chapter): concurrent queues, barrier blocks, dispatch_sync getters",
        bug: "a rename is dispatched to a concurrent queue as a plain block, so readers run beside it and see half a rename",
        invariants: [
            "readers never see a torn name (first name of one person, last name of another)",
            "renames never overlap: once quiet, the card shows the last name written",
        ],
        expectedDetectors: [.tsan, .invariant],
        defaultIterations: [.scripted: 3, .stress: 120]
    )

    public static let variants: [LabVariant<ReaderWriterEnvironment, ReaderWriterController>] = [
        LabVariant(.broken) { ReaderWriterBroken(environment: $0) },
    ]

    // Short names on purpose: a Swift string of up to 15 bytes is stored inline, so a torn read
    // of one (the race can tear even a single field: "Gra Lovelace") is garbage but never a
    // dangling pointer.
    static let people = [
        ReaderWriterName("Ada", "Lovelace"), ReaderWriterName("Grace", "Hopper"),
        ReaderWriterName("Alan", "Turing"), ReaderWriterName("Edsger", "Dijkstra"),
        ReaderWriterName("Barbara", "Liskov"),
    ]

    public static func play(_ variant: LabVariant<ReaderWriterEnvironment, ReaderWriterController>, in run: ScenarioRun) {
        var written = [people[0]]
        let card = variant.make(ReaderWriterEnvironment(initialName: people[0], typist: ReaderWriterTypist()))
        let sightings = ReaderWriterSightings()
        var readers = 0
        var seenOnMain: [ReaderWriterName] = []  // not in `sightings`: its lock would order main after the readers
        var heldLooks = 0..<0  // scripted: the looks taken while the second rename was held

        switch run.mode {
        case .scripted:
            // A reader thread looks at the card over and over. The user renames Ada Lovelace to
            // Grace Hopper, then Grace Hopper to Alan Turing. The second rename is held when the
            // first name is stored and the last is still being typed, while the reader takes two
            // more looks. (A correct card makes the reader wait instead: then the app is quiet.)
            // Why two renames: TSan takes a few hundred milliseconds to print its first report,
            // on whichever thread finds the race. The first rename gets that report out of the
            // way; in the held moment, the same race on the same fields is not printed again, so
            // the reader's looks are not slowed down.
            sightings.startReader(of: card, reads: 20_000, restMicroseconds: 1000)
            readers += 1
            run.waitUntil(timeout: 5) { Checkpoint.hits("card.glanced") >= 1 }
            written.append(people[1])
            run.user("renames the card to \(people[1])") { card.rename(to: people[1]) }
            run.waitUntil(timeout: 5) { Checkpoint.hits("card.field") >= 2 }
            let looksSoFar = Checkpoint.hits("card.glanced")
            run.waitUntil(timeout: 5) { Checkpoint.hits("card.glanced") >= looksSoFar + 3 }

            let halfRenamed = run.pause(at: "card.field", hit: 4)
            written.append(people[2])
            run.user("renames the card to \(people[2])") { card.rename(to: people[2]) }
            halfRenamed.whilePaused {
                let looks = Checkpoint.hits("card.glanced")
                run.waitUntilDoneOrQuiet { Checkpoint.hits("card.glanced") >= looks + 2 }
                heldLooks = looks..<Checkpoint.hits("card.glanced")  // the reader's n-th look is sightings[n - 1]
            }
            Checkpoint.hit("card.done")
        case .stress:
            // Two reader threads keep glancing at the card (each look after a random delay) while
            // the user renames it a few times and looks at it too.
            for _ in 0..<2 {
                sightings.startReader(of: card, reads: 200)
                readers += 1
            }
            for _ in 0..<5 {
                run.randomPause(upTo: 2)
                let others = people.filter { $0 != written.last }
                let next = others[Int(run.random.next(upperBound: UInt64(others.count)))]
                written.append(next)
                run.user("renames the card to \(next)") { card.rename(to: next) }
                if run.random.next(upperBound: UInt64(2)) == 0 {
                    run.user("looks at the card") { seenOnMain.append(card.currentName()) }
                }
            }
            Checkpoint.hit("card.done")
        }

        let readersFinished = run.waitUntilDoneOrQuiet { sightings.finishedReaders == readers }
        run.expect(readersFinished, "the readers never finished: they wait for something that never comes")
        run.settle()

        if run.mode == .scripted {
            // The readers are gone. The user renames the card twice in a row, and the first of the
            // two is held half typed. The second must wait for it: two renames typed side by side
            // mix their fields, and the name written last is not the one that stays.
            let fields = Checkpoint.hits("card.field")
            let twoInARow = run.pause(at: "card.field", hit: fields + 2)
            for person in people[3...4] {
                written.append(person)
                run.user("renames the card to \(person)") { card.rename(to: person) }
            }
            twoInARow.whilePaused {
                run.waitUntilDoneOrQuiet { Checkpoint.hits("card.field") >= fields + 4 }
            }
            run.settle()
        }

        let possible = Set(written)
        let torn = (sightings.all + seenOnMain).filter { !possible.contains($0) }
        run.record("torn reads", Double(torn.count))
        if run.mode == .scripted {
            let held = sightings.all.indices.clamped(to: heldLooks)
            run.record("torn reads while held", Double(sightings.all[held].filter { !possible.contains($0) }.count))
        }
        if !torn.isEmpty {
            var distinct: [ReaderWriterName] = []
            for name in torn where !distinct.contains(name) { distinct.append(name) }
            let shownTorn = distinct.prefix(5).map { "\"\($0.printable)\"" }.joined(separator: ", ")
            run.fail("readers saw \(shownTorn)\(distinct.count > 5 ? ", ..." : ""): half of one name and half of another "
                     + "(\(torn.count) torn reads); the names written were \(written.map(\.description))")
        }
        // The app is quiet (above): every rename has landed, late ones out of order included.
        let shown = card.currentName()
        run.expect(shown == written.last, "once quiet, the card says \"\(shown)\" but the last rename was to \"\(written.last!)\"")
    }
}
