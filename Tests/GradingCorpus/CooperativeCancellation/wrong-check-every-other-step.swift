// WRONG: the handler stops the encoder, but the loop looks at its cancellation only every other photo: an odd photo that was finishing at the cancel still lands, and the next one starts.
import Foundation
import LabKit
import CooperativeCancellation
import Synchronization

final class CooperativeCancellationWrongCheckEveryOtherStep: CooperativeCancellationController {
    private let photos: [Int]
    private let encoder: LegacyPhotoEncoder
    private let album: ExportAlbum
    private var export: Task<Void, Error>?  // main thread only

    init(environment: ExportEnvironment) {
        photos = environment.photos
        encoder = environment.encoder
        album = environment.album
    }

    func startExport() {
        export = Task { [photos, encoder, album] in
            for (index, photo) in photos.enumerated() {
                if index.isMultiple(of: 2) { try Task.checkCancellation() }
                let file = try await Self.encode(photo, with: encoder)
                try await MainActor.run {
                    if index.isMultiple(of: 2) { try Task.checkCancellation() }
                    album.add(file)
                }
            }
            try await MainActor.run {
                try Task.checkCancellation()
                album.finish()
            }
        }
    }

    func cancelExport() {
        export?.cancel()
    }

    /// The old encoder, wrapped so that the task's cancel reaches its job.
    static func encode(_ photo: Int, with encoder: LegacyPhotoEncoder) async throws -> EncodedPhoto {
        let state = Mutex<(job: EncodeJob?, cancelled: Bool)>((nil, false))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let job = encoder.encodingJob(for: photo) { file in
                    if let file { continuation.resume(returning: file) } else { continuation.resume(throwing: CancellationError()) }
                }
                if state.withLock({ $0.job = job; return $0.cancelled }) { job.cancel() }
                job.start()
            }
        } onCancel: {
            state.withLock { $0.cancelled = true; return $0.job }?.cancel()
        }
    }
}
