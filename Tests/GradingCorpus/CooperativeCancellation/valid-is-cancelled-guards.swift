// VALID: a `Task.isCancelled` guard before each photo and before anything shows, and a cancellation handler that cancels the encoder's job.
import Foundation
import LabKit
import CooperativeCancellation
import Synchronization

final class CooperativeCancellationValidIsCancelledGuards: CooperativeCancellationController {
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
            for photo in photos {
                guard !Task.isCancelled else { return }
                let file = try await Self.encode(photo, with: encoder)
                let shown = await MainActor.run { () -> Bool in
                    guard !Task.isCancelled else { return false }
                    album.add(file)
                    return true
                }
                guard shown else { return }
            }
            await MainActor.run {
                guard !Task.isCancelled else { return }
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
