// WRONG: checks before each photo and before anything shows, but the continuation has no cancellation handler: the photo being encoded goes on to its end.
import Foundation
import LabKit
import CooperativeCancellation
import Synchronization

final class CooperativeCancellationWrongNoHandler: CooperativeCancellationController {
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
                try Task.checkCancellation()
                let file = try await Self.encode(photo, with: encoder)
                try await MainActor.run {
                    try Task.checkCancellation()
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

    /// The old encoder, wrapped in a continuation.
    static func encode(_ photo: Int, with encoder: LegacyPhotoEncoder) async throws -> EncodedPhoto {
        try await withCheckedThrowingContinuation { continuation in
            encoder.encodingJob(for: photo) { file in
                if let file { continuation.resume(returning: file) } else { continuation.resume(throwing: CancellationError()) }
            }.start()
        }
    }
}
