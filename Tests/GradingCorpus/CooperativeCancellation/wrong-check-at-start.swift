// WRONG: the task checks its cancellation once, before the first photo; the loop itself never looks again, and the encoder never hears of the cancel.
import Foundation
import LabKit
import CooperativeCancellation
import Synchronization

final class CooperativeCancellationWrongCheckAtStart: CooperativeCancellationController {
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
            try Task.checkCancellation()
            for photo in photos {
                let file = try await Self.encode(photo, with: encoder)
                await MainActor.run { album.add(file) }
            }
            await MainActor.run { album.finish() }
        }
    }

    func cancelExport() {
        export?.cancel()
    }

    /// The old encoder, wrapped in a continuation.
    static func encode(_ photo: Int, with encoder: LegacyPhotoEncoder) async throws -> EncodedPhoto {
        try await withCheckedThrowingContinuation { continuation in
            encoder.encodingJob(for: photo) { file in
                if let file { continuation.resume(returning: file) } else { continuation.resume(throwing: CancellationError()) }
            }.start()
        }
    }
}
