// WRONG: on a time-out it resumes with the error, then cancels the request so that the late
// answer cannot come. But between the resume and the cancel the answer can land, and it resumes
// the continuation a second time.
import Foundation
import LabKit
import ContinuationMisuse

final class ContinuationMisuseWrongResumeThenCancelHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: GeocodeRequest?

    var request: GeocodeRequest? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

final class ContinuationMisuseWrongResumeThenCancel: ContinuationMisuseController {
    private let geocoder: LegacyGeocoder

    init(geocoder: LegacyGeocoder) {
        self.geocoder = geocoder
    }

    func place(for address: String) async throws -> GeoPlace {
        try await withCheckedThrowingContinuation { continuation in
            let holder = ContinuationMisuseWrongResumeThenCancelHolder()
            holder.request = geocoder.lookup(
                address,
                onResult: { place in continuation.resume(returning: place) },
                onError: { error in
                    continuation.resume(throwing: error)
                    holder.request?.cancel()
                }
            )
        }
    }
}
