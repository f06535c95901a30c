// VALID: a once-only flag under a Mutex; each callback claims it first and resumes only if it was
// the first to claim it.
import Foundation
import LabKit
import ContinuationMisuse
import Synchronization

final class ContinuationMisuseValidMutexFlagClaim: Sendable {
    private let claimed = Mutex(false)

    /// True for the first caller only.
    func claim() -> Bool {
        claimed.withLock { wasClaimed in
            defer { wasClaimed = true }
            return !wasClaimed
        }
    }
}

final class ContinuationMisuseValidMutexFlag: ContinuationMisuseController {
    private let geocoder: LegacyGeocoder

    init(geocoder: LegacyGeocoder) {
        self.geocoder = geocoder
    }

    func place(for address: String) async throws -> GeoPlace {
        try await withCheckedThrowingContinuation { continuation in
            let claim = ContinuationMisuseValidMutexFlagClaim()
            geocoder.lookup(
                address,
                onResult: { place in
                    if claim.claim() { continuation.resume(returning: place) }
                },
                onError: { error in
                    if claim.claim() { continuation.resume(throwing: error) }
                }
            )
        }
    }
}
