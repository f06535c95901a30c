import Foundation
import LabKit

/// The app's async wrapper around the old geocoder: one continuation per search, resumed from the
/// callbacks.
final class ContinuationMisuseBroken: ContinuationMisuseController {
    private let geocoder: LegacyGeocoder

    init(geocoder: LegacyGeocoder) {
        self.geocoder = geocoder
    }

    func place(for address: String) async throws -> GeoPlace {
        try await withCheckedThrowingContinuation { continuation in
            geocoder.lookup(
                address,
                // BUG: after a time-out the geocoder calls both callbacks, so this continuation is
                // resumed twice: first with the error, then again with the late answer.
                onResult: { place in continuation.resume(returning: place) },
                onError: { error in continuation.resume(throwing: error) }  // BUG: see above
            )
        }
    }
}
