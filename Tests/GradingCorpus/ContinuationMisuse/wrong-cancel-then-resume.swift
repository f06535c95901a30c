// WRONG: on a time-out it cancels the request first, then resumes with the error. But cancel()
// stops only callbacks that have not begun: an answer already on its way still comes, resumes
// the continuation, and then the error resumes it again.
import Foundation
import LabKit
import ContinuationMisuse

final class ContinuationMisuseWrongCancelThenResumeHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: GeocodeRequest?

    var request: GeocodeRequest? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

final class ContinuationMisuseWrongCancelThenResume: ContinuationMisuseController {
    private let geocoder: LegacyGeocoder

    init(geocoder: LegacyGeocoder) {
        self.geocoder = geocoder
    }

    func place(for address: String) async throws -> GeoPlace {
        try await withCheckedThrowingContinuation { continuation in
            let holder = ContinuationMisuseWrongCancelThenResumeHolder()
            holder.request = geocoder.lookup(
                address,
                onResult: { place in continuation.resume(returning: place) },
                onError: { error in
                    holder.request?.cancel()
                    continuation.resume(throwing: error)
                }
            )
        }
    }
}
