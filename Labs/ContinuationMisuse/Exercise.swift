import Foundation
import LabKit
import ContinuationMisuse

/// EXERCISE: a copy of the broken variant. Make every search return exactly once, on every path
/// the geocoder can take (an answer, an error, a time-out, a time-out followed by a late answer).
/// Check it with `make check LAB=continuation-misuse`. Keep the class name and `place(for:)`.
/// The app's async wrapper around the old geocoder: one continuation per search, resumed from the
/// callbacks.
final class ContinuationMisuseExercise: ContinuationMisuseController {
    private let geocoder: LegacyGeocoder

    init(geocoder: LegacyGeocoder) {
        self.geocoder = geocoder
    }

    func place(for address: String) async throws -> GeoPlace {
        try await withCheckedThrowingContinuation { continuation in
            geocoder.lookup(
                address,
                // TODO: fix this: after a time-out the geocoder calls both callbacks, so this
                // continuation is resumed twice: first with the error, then again with the late answer.
                onResult: { place in continuation.resume(returning: place) },
                onError: { error in continuation.resume(throwing: error) }  // TODO: see above
            )
        }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeContinuationMisuseExercise(_ geocoder: LegacyGeocoder) -> ContinuationMisuseController {
    ContinuationMisuseExercise(geocoder: geocoder)
}
