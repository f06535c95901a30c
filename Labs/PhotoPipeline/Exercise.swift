import Foundation
import LabKit
import PhotoPipeline

// EXERCISE: a copy of the broken variant. Make it safe: the operations must not share the
// records with the table, a cancelled row must stop working at its next chunk or step, and every
// visible row must end filtered (or "failed"). Check it with `make check
// LAB=photo-pipeline`. Also worth fixing, though the grader does not check them: the filter a
// failed download leaves behind, and the delegate that can outlive the screen. Keep the class
// name PhotoPipelineExercise and the three methods of PhotoPipelineController; change anything else.

/// The tutorial's photo record: one object per row, shared by the table and the operations.
final class PhotoPipelineExerciseRecord {
    let name: String
    let url: String
    var image: PhotoPipelineImage?
    var isFiltered = false
    var isFailed = false
    var hasImage: Bool { image != nil }

    init(_ photo: PhotoPipelinePhoto) {
        name = photo.name
        url = photo.url
    }
}

/// Told on the main thread when an operation is done (the tutorial's delegate protocols).
protocol PhotoPipelineExerciseOperationDelegate: AnyObject {
    func downloaderDidFinish(_ downloader: PhotoPipelineExerciseDownloader)
    func filtrationDidFinish(_ filtration: PhotoPipelineExerciseFiltration)
}

/// Downloads a record's picture and stores it in the record, then tells its delegate on the
/// main thread, as the tutorial's ImageDownloader does.
final class PhotoPipelineExerciseDownloader: Operation, @unchecked Sendable {
    let record: PhotoPipelineExerciseRecord
    let row: Int
    private let network: PhotoPipelineNetwork
    // TODO: fix this: the tutorial's delegate is an `assign` property: nothing keeps the list screen alive,
    // and nothing clears this when it goes away. (`unowned` traps where `assign` would read freed
    // memory.) A download that outlives its screen calls a dead delegate.
    unowned let delegate: PhotoPipelineExerciseOperationDelegate

    init(record: PhotoPipelineExerciseRecord, row: Int, network: PhotoPipelineNetwork, delegate: PhotoPipelineExerciseOperationDelegate) {
        self.record = record
        self.row = row
        self.network = network
        self.delegate = delegate
    }

    override func main() {
        if isCancelled { return }
        // TODO: fix this: like a plain "load this URL", the download cannot stop half way: cancelling a row
        // that scrolled away only skips what comes after it.
        var picture: PhotoPipelineImage?
        let complete = network.download(record.url, into: &picture)
        if isCancelled { return }
        if complete {
            record.image = picture  // TODO: fix this: the shared record, written on this thread while the table reads it on main.
        } else {
            record.isFailed = true  // TODO: fix this: the shared record again.
        }
        if isCancelled { return }
        let delegate = self.delegate
        OperationQueue.main.addOperation { delegate.downloaderDidFinish(self) }
    }
}

/// Applies the sepia filter to a record's picture, in place, then tells its delegate on the main
/// thread, as the tutorial's ImageFiltration does.
final class PhotoPipelineExerciseFiltration: Operation, @unchecked Sendable {
    let record: PhotoPipelineExerciseRecord
    let row: Int
    private let filter: PhotoPipelineSepiaFilter
    weak var delegate: PhotoPipelineExerciseOperationDelegate?

    init(record: PhotoPipelineExerciseRecord, row: Int, filter: PhotoPipelineSepiaFilter, delegate: PhotoPipelineExerciseOperationDelegate) {
        self.record = record
        self.row = row
        self.filter = filter
        self.delegate = delegate
    }

    override func main() {
        if isCancelled { return }
        // TODO: fix this: when the download failed there is no picture, and the filter leaves without a
        // word: its delegate is never told, so the row's filter stays "in progress" for good.
        guard let raw = record.image else { return }  // TODO: fix this: the shared record, read on this thread.
        guard let sepia = filter.apply(to: raw) else { return }
        if isCancelled { return }
        record.image = sepia  // TODO: fix this: the shared record, written on this thread while the table reads it on main.
        record.isFiltered = true
        let delegate = self.delegate
        OperationQueue.main.addOperation { delegate?.filtrationDidFinish(self) }
    }
}

/// The list screen, as the tutorial builds it: two queues, two "in progress" dictionaries kept
/// on the main thread, a filter that depends on its pending download, suspend while scrolling,
/// and cancel the rows that scrolled away.
final class PhotoPipelineExercise: PhotoPipelineController, PhotoPipelineExerciseOperationDelegate {
    private let table: PhotoPipelineTable
    private let network: PhotoPipelineNetwork
    private let filter: PhotoPipelineSepiaFilter
    private let records: [PhotoPipelineExerciseRecord]
    private var downloadsInProgress: [Int: PhotoPipelineExerciseDownloader] = [:]
    private var filtrationsInProgress: [Int: PhotoPipelineExerciseFiltration] = [:]
    private let downloadQueue = OperationQueue()
    private let filtrationQueue = OperationQueue()

    init(environment: PhotoPipelineEnvironment) {
        table = environment.table
        network = environment.network
        filter = environment.filter
        records = environment.photos.map(PhotoPipelineExerciseRecord.init)
        downloadQueue.name = "Download Queue"
        downloadQueue.maxConcurrentOperationCount = 1
        filtrationQueue.name = "Image Filtration Queue"
        filtrationQueue.maxConcurrentOperationCount = 1
    }

    func cell(forRow row: Int) -> PhotoPipelineCell {
        let record = records[row]  // TODO: fix this: read on main while an operation may be writing it.
        if let image = record.image { return .photo(image) }
        if record.isFailed { return .failed }
        if !table.isScrolling() { startOperations(for: record, at: row) }
        return .placeholder
    }

    private func startOperations(for record: PhotoPipelineExerciseRecord, at row: Int) {
        if !record.hasImage { startDownload(for: record, at: row) }
        if !record.isFiltered { startFiltration(for: record, at: row) }
    }

    private func startDownload(for record: PhotoPipelineExerciseRecord, at row: Int) {
        guard downloadsInProgress[row] == nil else { return }
        let downloader = PhotoPipelineExerciseDownloader(record: record, row: row, network: network, delegate: self)
        downloadsInProgress[row] = downloader
        downloadQueue.addOperation(downloader)
    }

    private func startFiltration(for record: PhotoPipelineExerciseRecord, at row: Int) {
        guard filtrationsInProgress[row] == nil else { return }
        let filtration = PhotoPipelineExerciseFiltration(record: record, row: row, filter: filter, delegate: self)
        // The filter waits for the row's download, if one is still in progress.
        if let download = downloadsInProgress[row] { filtration.addDependency(download) }
        filtrationsInProgress[row] = filtration
        filtrationQueue.addOperation(filtration)
    }

    func downloaderDidFinish(_ downloader: PhotoPipelineExerciseDownloader) {
        table.reloadRow(downloader.row)
        downloadsInProgress[downloader.row] = nil
    }

    func filtrationDidFinish(_ filtration: PhotoPipelineExerciseFiltration) {
        table.reloadRow(filtration.row)
        filtrationsInProgress[filtration.row] = nil
    }

    func scrollWillBegin() {
        downloadQueue.isSuspended = true
        filtrationQueue.isSuspended = true
    }

    func scrollDidEnd() {
        loadImagesForOnscreenCells()
        downloadQueue.isSuspended = false
        filtrationQueue.isSuspended = false
    }

    private func loadImagesForOnscreenCells() {
        let visible = Set(table.visibleRows())
        let pending = Set(downloadsInProgress.keys).union(filtrationsInProgress.keys)
        for row in pending.subtracting(visible) {
            downloadsInProgress.removeValue(forKey: row)?.cancel()
            filtrationsInProgress.removeValue(forKey: row)?.cancel()
        }
        for row in visible.subtracting(pending).sorted() {
            startOperations(for: records[row], at: row)
        }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makePhotoPipelineExercise(_ environment: PhotoPipelineEnvironment) -> PhotoPipelineController {
    PhotoPipelineExercise(environment: environment)
}
