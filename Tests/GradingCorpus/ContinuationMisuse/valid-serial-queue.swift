// VALID: a single resume point: both callbacks hand their result to one serial queue, where the
// continuation is resumed and forgotten; whatever comes second finds nothing to resume.
import Foundation
import LabKit
import ContinuationMisuse

final class ContinuationMisuseValidSerialQueueDelivery: @unchecked Sendable {
    private let queue = DispatchQueue(label: "geocode.delivery")
    private var continuation: CheckedContinuation<GeoPlace, Error>?  // on `queue` only

    init(_ continuation: CheckedContinuation<GeoPlace, Error>) {
        self.continuation = continuation
    }

    func deliver(_ result: Result<GeoPlace, Error>) {
        queue.async {
            guard let continuation = self.continuation else { return }
            self.continuation = nil
            continuation.resume(with: result)
        }
    }
}

final class ContinuationMisuseValidSerialQueue: ContinuationMisuseController {
    private let geocoder: LegacyGeocoder

    init(geocoder: LegacyGeocoder) {
        self.geocoder = geocoder
    }

    func place(for address: String) async throws -> GeoPlace {
        try await withCheckedThrowingContinuation { continuation in
            let delivery = ContinuationMisuseValidSerialQueueDelivery(continuation)
            geocoder.lookup(
                address,
                onResult: { delivery.deliver(.success($0)) },
                onError: { delivery.deliver(.failure($0)) }
            )
        }
    }
}
