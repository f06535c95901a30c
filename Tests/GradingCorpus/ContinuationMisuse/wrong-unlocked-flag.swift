// WRONG: a once-only flag, but a plain Bool with no lock: the two callbacks run on two of the
// geocoder's threads, so the check and the write race (a data race; at the wrong moment both
// pass the check and the continuation is resumed twice after all).
import Foundation
import LabKit
import ContinuationMisuse

final class ContinuationMisuseWrongUnlockedFlagState {
    var resumed = false
}

final class ContinuationMisuseWrongUnlockedFlag: ContinuationMisuseController {
    private let geocoder: LegacyGeocoder

    init(geocoder: LegacyGeocoder) {
        self.geocoder = geocoder
    }

    func place(for address: String) async throws -> GeoPlace {
        try await withCheckedThrowingContinuation { continuation in
            let state = ContinuationMisuseWrongUnlockedFlagState()
            geocoder.lookup(
                address,
                onResult: { place in
                    guard !state.resumed else { return }
                    state.resumed = true
                    continuation.resume(returning: place)
                },
                onError: { error in
                    guard !state.resumed else { return }
                    state.resumed = true
                    continuation.resume(throwing: error)
                }
            )
        }
    }
}
