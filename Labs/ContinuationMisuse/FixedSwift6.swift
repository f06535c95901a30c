import LabKit
import ContinuationMisuse
import Synchronization

/// The fix in the Swift 6 language mode (this file is built with every warning an error): the
/// continuation lives in a `Mutex`, and the box is `Sendable` because the compiler can see that
/// its only state is behind that lock.
final class ContinuationMisuseMutexOnce: Sendable {
    private let pending: Mutex<CheckedContinuation<GeoPlace, any Error>?>

    init(_ continuation: CheckedContinuation<GeoPlace, any Error>) {
        pending = Mutex(continuation)
    }

    /// Resumes the continuation if no callback did before; otherwise does nothing.
    func resume(with result: Result<GeoPlace, any Error>) {
        // FIX: `take()` empties the slot in the same locked step that reads it.
        pending.withLock { $0.take() }?.resume(with: result)
    }
}

/// A `Sendable` wrapper: its one stored property is the `Sendable` geocoder, its callbacks are
/// `@Sendable` closures that capture only `Sendable` values (the box), and the place it returns
/// is a `Sendable` value.
final class ContinuationMisuseFixedMutex: ContinuationMisuseController, Sendable {
    private let geocoder: LegacyGeocoder

    init(geocoder: LegacyGeocoder) {
        self.geocoder = geocoder
    }

    func place(for address: String) async throws -> GeoPlace {
        try await withCheckedThrowingContinuation { continuation in
            let once = ContinuationMisuseMutexOnce(continuation)
            geocoder.lookup(
                address,
                onResult: { place in once.resume(with: .success(place)) },  // FIX: through the box
                onError: { error in once.resume(with: .failure(error)) }  // FIX: through the box
            )
        }
    }
}

extension ContinuationMisuseLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<LegacyGeocoder, ContinuationMisuseController>] {
        [LabVariant(.fixed, name: "fixed-mutex") { ContinuationMisuseFixedMutex(geocoder: $0) }]
    }
}
