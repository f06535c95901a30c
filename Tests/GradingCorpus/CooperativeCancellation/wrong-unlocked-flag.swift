// WRONG: a Bool of the controller's own instead of the task's cancellation, set on main and read in the task with no lock (a data race), and the encoder never hears of it.
import Foundation
import LabKit
import CooperativeCancellation
import Synchronization

final class CooperativeCancellationWrongUnlockedFlag: CooperativeCancellationController {
    private let photos: [Int]
    private let encoder: LegacyPhotoEncoder
    private let album: ExportAlbum
    private var export: Task<Void, Error>?  // main thread only
    private var stopped = false

    init(environment: ExportEnvironment) {
        photos = environment.photos
        encoder = environment.encoder
        album = environment.album
    }

    func startExport() {
        export = Task { [self, photos, encoder, album] in
            for photo in photos {
                if stopped { return }
                let file = try await Self.encode(photo, with: encoder)
                if stopped { return }
                await MainActor.run { album.add(file) }
            }
            await MainActor.run { album.finish() }
        }
    }

    func cancelExport() {
        stopped = true
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
