// WRONG: it ignores a time-out, "because the answer will come anyway", and resumes on every other
// error and on the answer. When the server never answers, nothing resumes the continuation.
import Foundation
import LabKit
import ContinuationMisuse

final class ContinuationMisuseWrongWaitsForLateAnswer: ContinuationMisuseController {
    private let geocoder: LegacyGeocoder

    init(geocoder: LegacyGeocoder) {
        self.geocoder = geocoder
    }

    func place(for address: String) async throws -> GeoPlace {
        try await withCheckedThrowingContinuation { continuation in
            geocoder.lookup(
                address,
                onResult: { place in continuation.resume(returning: place) },
                onError: { error in
                    if error == .timedOut { return }  // the late answer will resume it
                    continuation.resume(throwing: error)
                }
            )
        }
    }
}
