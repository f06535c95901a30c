// WRONG: "the crash comes from resuming twice, so resume in one place only": it resumes on
// success and only logs errors. A search that fails (an unknown address, a time-out with no
// answer) never returns: its caller waits for ever.
import Foundation
import LabKit
import ContinuationMisuse

final class ContinuationMisuseWrongSuccessOnly: ContinuationMisuseController {
    private let geocoder: LegacyGeocoder

    init(geocoder: LegacyGeocoder) {
        self.geocoder = geocoder
    }

    func place(for address: String) async throws -> GeoPlace {
        try await withCheckedThrowingContinuation { continuation in
            geocoder.lookup(
                address,
                onResult: { place in continuation.resume(returning: place) },
                onError: { error in print("geocoding \(address) failed: \(error)") }
            )
        }
    }
}
