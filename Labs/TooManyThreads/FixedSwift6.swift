import LabKit
import TooManyThreads

/// The memory card as an actor: it runs one of its methods at a time, so it reads one photo at a
/// time, whoever asks. A caller waiting for its turn is a suspended task, not a blocked thread.
private actor TooManyThreadsCard {
    private let reader: TooManyThreadsCardReader

    init(reader: TooManyThreadsCardReader) { self.reader = reader }

    // FIX: actor-isolated and without an `await` inside: one read runs to its end before the next
    // one starts (there is no suspension point where another caller could slip in).
    func read(_ name: String) -> ImportedPhoto {
        reader.read(name)
    }
}

/// The same fix in Swift 6 terms: no thread of our own at all. Each import is one task on the
/// main actor that asks the card actor for its photos in turn and shows each one as it comes
/// back; the card actor lets one read run at a time, across every import. The class is
/// `Sendable`, and Swift 6 checks it: every stored property is.
final class TooManyThreadsFixedSwift6: TooManyThreadsController, Sendable {
    private let gallery: TooManyThreadsGallery
    private let card: TooManyThreadsCard

    init(environment: TooManyThreadsEnvironment) {
        gallery = environment.gallery
        card = TooManyThreadsCard(reader: environment.reader)
    }

    func importPhotos(_ names: [String]) {
        let gallery = self.gallery, card = self.card
        // FIX: a task, not a thread: it holds no thread while it waits for the card.
        Task { @MainActor in
            for name in names {
                let photo = await card.read(name)  // FIX: the card actor reads one photo at a time.
                gallery.show(photo)  // back on the main actor: the main thread
            }
        }
    }
}

extension TooManyThreadsLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<TooManyThreadsEnvironment, TooManyThreadsController>] {
        [LabVariant(.fixed, name: "fixed-actor", runsTasks: true) { TooManyThreadsFixedSwift6(environment: $0) }]
    }
}
