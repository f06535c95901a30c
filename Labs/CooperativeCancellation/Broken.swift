import Foundation
import LabKit

/// Exports the album in a `Task`, photo by photo, and cancels that task when the user taps Cancel.
final class CooperativeCancellationBroken: CooperativeCancellationController {
    private let photos: [Int]
    private let encoder: LegacyPhotoEncoder
    private let album: ExportAlbum
    private var export: Task<Void, Never>?  // main thread only

    init(environment: ExportEnvironment) {
        photos = environment.photos
        encoder = environment.encoder
        album = environment.album
    }

    func startExport() {
        export = Task { [photos, encoder, album] in
            for photo in photos {
                // BUG: the loop never asks whether the task was cancelled: it exports every photo.
                let file = await CooperativeCancellationBroken.encode(photo, with: encoder)
                await MainActor.run { album.add(file) }  // BUG: lands even after the user cancelled.
            }
            await MainActor.run { album.finish() }
        }
    }

    func cancelExport() {
        // BUG: cancel() only sets the task's flag; nothing here or in the task ever reads it.
        export?.cancel()
    }

    /// The old encoder, wrapped in a continuation.
    static func encode(_ photo: Int, with encoder: LegacyPhotoEncoder) async -> EncodedPhoto {
        await withCheckedContinuation { continuation in
            // BUG: the task's cancel never reaches the job: the photo is encoded to its end.
            encoder.encodingJob(for: photo) { file in
                continuation.resume(returning: file ?? EncodedPhoto(photo: photo))
            }.start()
        }
    }
}
