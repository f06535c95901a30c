import Foundation
import LabKit
import ContinuationMisuse

/// Holds a search's continuation until the first callback takes it; whoever comes later finds
/// nothing to resume. The one place that resumes.
final class ContinuationMisuseResumeOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<GeoPlace, Error>?  // under `lock`

    init(_ continuation: CheckedContinuation<GeoPlace, Error>) {
        self.continuation = continuation
    }

    func resume(with result: Result<GeoPlace, Error>) {
        // FIX: take the continuation out under the lock: of two callbacks on two threads, exactly
        // one gets it, and the other finds nil.
        lock.lock()
        let first = continuation
        continuation = nil
        lock.unlock()
        first?.resume(with: result)  // FIX: resumed outside the lock (it may run the caller at once)
    }
}

/// The same wrapper, with both callbacks going through the once-only box.
final class ContinuationMisuseFixed: ContinuationMisuseController {
    private let geocoder: LegacyGeocoder

    init(geocoder: LegacyGeocoder) {
        self.geocoder = geocoder
    }

    func place(for address: String) async throws -> GeoPlace {
        try await withCheckedThrowingContinuation { continuation in
            let once = ContinuationMisuseResumeOnce(continuation)
            geocoder.lookup(
                address,
                // FIX: every path resumes, and only the first callback of the two counts; a late
                // answer after a time-out is dropped.
                onResult: { place in once.resume(with: .success(place)) },
                onError: { error in once.resume(with: .failure(error)) }
            )
        }
    }
}

extension ContinuationMisuseLab {
    public static var solutions: [LabVariant<LegacyGeocoder, ContinuationMisuseController>] {
        [LabVariant(.fixed) { ContinuationMisuseFixed(geocoder: $0) }]
    }
}
