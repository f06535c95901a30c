// VALID: on a time-out it also cancels the request, so the late answer usually never comes; but
// the resume still goes through a locked once-only box, because cancel() cannot stop an answer
// that is already on its way.
import Foundation
import LabKit
import ContinuationMisuse

final class ContinuationMisuseValidCancelAndOnceBox: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<GeoPlace, Error>?
    private var request: GeocodeRequest?

    init(_ continuation: CheckedContinuation<GeoPlace, Error>) {
        self.continuation = continuation
    }

    func started(_ request: GeocodeRequest) {
        lock.lock()
        self.request = request
        lock.unlock()
    }

    func finish(_ result: Result<GeoPlace, Error>) {
        lock.lock()
        let continuation = self.continuation
        let request = self.request
        self.continuation = nil
        lock.unlock()
        if case .failure(GeocodeError.timedOut) = result { request?.cancel() }
        continuation?.resume(with: result)
    }
}

final class ContinuationMisuseValidCancelAndOnce: ContinuationMisuseController {
    private let geocoder: LegacyGeocoder

    init(geocoder: LegacyGeocoder) {
        self.geocoder = geocoder
    }

    func place(for address: String) async throws -> GeoPlace {
        try await withCheckedThrowingContinuation { continuation in
            let box = ContinuationMisuseValidCancelAndOnceBox(continuation)
            let request = geocoder.lookup(
                address,
                onResult: { box.finish(.success($0)) },
                onError: { box.finish(.failure($0)) }
            )
            box.started(request)
        }
    }
}
