// WRONG: the operations still write the row's shared record on their own threads; the table only
// avoids reading it while the row has work in progress. A row cancelled just after an operation's
// isCancelled check is dropped from the lists, and when it scrolls back the table reads the record
// the cancelled operation is still writing.
import Foundation
import LabKit
import PhotoPipeline

// EXERCISE: a copy of the broken variant. Make it safe: the operations must not share the
// records with the table, a cancelled row must stop working at its next chunk or step, and every
// visible row must end filtered (or "failed"). Check it with `make check
// LAB=photo-pipeline`. Also worth fixing, though the grader does not check them: the filter a
// failed download leaves behind, and the delegate that can outlive the screen. Keep the class
// name PhotoPipelineWrongSharedRecordWhileInProgress and the three methods of PhotoPipelineController; change anything else.

/// The tutorial's photo record: one object per row, shared by the table and the operations.
final class PhotoPipelineWrongSharedRecordWhileInProgressRecord {
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
protocol PhotoPipelineWrongSharedRecordWhileInProgressOperationDelegate: AnyObject {
    func downloaderDidFinish(_ downloader: PhotoPipelineWrongSharedRecordWhileInProgressDownloader)
    func filtrationDidFinish(_ filtration: PhotoPipelineWrongSharedRecordWhileInProgressFiltration)
}

/// Downloads a record's picture and stores it in the record, then tells its delegate on the
/// main thread, as the tutorial's ImageDownloader does.
final class PhotoPipelineWrongSharedRecordWhileInProgressDownloader: Operation, @unchecked Sendable {
    let record: PhotoPipelineWrongSharedRecordWhileInProgressRecord
    let row: Int
    private let network: PhotoPipelineNetwork
    weak var delegate: PhotoPipelineWrongSharedRecordWhileInProgressOperationDelegate?

    init(record: PhotoPipelineWrongSharedRecordWhileInProgressRecord, row: Int, network: PhotoPipelineNetwork, delegate: PhotoPipelineWrongSharedRecordWhileInProgressOperationDelegate) {
        self.record = record
        self.row = row
        self.network = network
        self.delegate = delegate
    }

    override func main() {
        if isCancelled { return }
        var picture: PhotoPipelineImage?
        let complete = network.download(record.url, into: &picture, isCancelled: { [unowned self] in self.isCancelled })
        if isCancelled { return }
        if complete {
            record.image = picture  // TODO: fix this: the shared record, written on this thread while the table reads it on main.
        } else {
            record.isFailed = true  // TODO: fix this: the shared record again.
        }
        if isCancelled { return }
        OperationQueue.main.addOperation { [weak delegate] in delegate?.downloaderDidFinish(self) }
    }
}

/// Applies the sepia filter to a record's picture, in place, then tells its delegate on the main
/// thread, as the tutorial's ImageFiltration does.
final class PhotoPipelineWrongSharedRecordWhileInProgressFiltration: Operation, @unchecked Sendable {
    let record: PhotoPipelineWrongSharedRecordWhileInProgressRecord
    let row: Int
    private let filter: PhotoPipelineSepiaFilter
    weak var delegate: PhotoPipelineWrongSharedRecordWhileInProgressOperationDelegate?

    init(record: PhotoPipelineWrongSharedRecordWhileInProgressRecord, row: Int, filter: PhotoPipelineSepiaFilter, delegate: PhotoPipelineWrongSharedRecordWhileInProgressOperationDelegate) {
        self.record = record
        self.row = row
        self.filter = filter
        self.delegate = delegate
    }

    override func main() {
        if isCancelled { return }
        let delegate = self.delegate
        guard let raw = record.image else {  // the download failed: say so, so the row is not left "in progress"
            OperationQueue.main.addOperation { delegate?.filtrationDidFinish(self) }
            return
        }
        guard let sepia = filter.apply(to: raw, isCancelled: { [unowned self] in self.isCancelled }) else { return }
        if isCancelled { return }
        record.image = sepia  // TODO: fix this: the shared record, written on this thread while the table reads it on main.
        record.isFiltered = true
        OperationQueue.main.addOperation { delegate?.filtrationDidFinish(self) }
    }
}

/// The list screen, as the tutorial builds it: two queues, two "in progress" dictionaries kept
/// on the main thread, a filter that depends on its pending download, suspend while scrolling,
/// and cancel the rows that scrolled away.
final class PhotoPipelineWrongSharedRecordWhileInProgress: PhotoPipelineController, PhotoPipelineWrongSharedRecordWhileInProgressOperationDelegate {
    private let table: PhotoPipelineTable
    private let network: PhotoPipelineNetwork
    private let filter: PhotoPipelineSepiaFilter
    private let records: [PhotoPipelineWrongSharedRecordWhileInProgressRecord]
    private var downloadsInProgress: [Int: PhotoPipelineWrongSharedRecordWhileInProgressDownloader] = [:]
    private var filtrationsInProgress: [Int: PhotoPipelineWrongSharedRecordWhileInProgressFiltration] = [:]
    private let downloadQueue = OperationQueue()
    private let filtrationQueue = OperationQueue()

    init(environment: PhotoPipelineEnvironment) {
        table = environment.table
        network = environment.network
        filter = environment.filter
        records = environment.photos.map(PhotoPipelineWrongSharedRecordWhileInProgressRecord.init)
        downloadQueue.name = "Download Queue"
        downloadQueue.maxConcurrentOperationCount = 1
        filtrationQueue.name = "Image Filtration Queue"
        filtrationQueue.maxConcurrentOperationCount = 1
    }

    func cell(forRow row: Int) -> PhotoPipelineCell {
        let record = records[row]
        // The operations write the record; the table reads it only when none of this row's is in progress.
        if downloadsInProgress[row] != nil || filtrationsInProgress[row] != nil { return .placeholder }
        if let image = record.image { return .photo(image) }
        if record.isFailed { return .failed }
        if !table.isScrolling() { startOperations(for: record, at: row) }
        return .placeholder
    }

    private func startOperations(for record: PhotoPipelineWrongSharedRecordWhileInProgressRecord, at row: Int) {
        if !record.hasImage { startDownload(for: record, at: row) }
        if !record.isFiltered { startFiltration(for: record, at: row) }
    }

    private func startDownload(for record: PhotoPipelineWrongSharedRecordWhileInProgressRecord, at row: Int) {
        guard downloadsInProgress[row] == nil else { return }
        let downloader = PhotoPipelineWrongSharedRecordWhileInProgressDownloader(record: record, row: row, network: network, delegate: self)
        downloadsInProgress[row] = downloader
        downloadQueue.addOperation(downloader)
    }

    private func startFiltration(for record: PhotoPipelineWrongSharedRecordWhileInProgressRecord, at row: Int) {
        guard filtrationsInProgress[row] == nil else { return }
        let filtration = PhotoPipelineWrongSharedRecordWhileInProgressFiltration(record: record, row: row, filter: filter, delegate: self)
        // The filter waits for the row's download, if one is still in progress.
        if let download = downloadsInProgress[row] { filtration.addDependency(download) }
        filtrationsInProgress[row] = filtration
        filtrationQueue.addOperation(filtration)
    }

    func downloaderDidFinish(_ downloader: PhotoPipelineWrongSharedRecordWhileInProgressDownloader) {
        downloadsInProgress[downloader.row] = nil
        table.reloadRow(downloader.row)
    }

    func filtrationDidFinish(_ filtration: PhotoPipelineWrongSharedRecordWhileInProgressFiltration) {
        filtrationsInProgress[filtration.row] = nil
        table.reloadRow(filtration.row)
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
            let download = downloadsInProgress.removeValue(forKey: row)
            if let filtration = filtrationsInProgress.removeValue(forKey: row) {
                if let download { filtration.removeDependency(download) }
                filtration.cancel()
            }
            download?.cancel()
        }
        for row in visible.subtracting(pending).sorted() {
            startOperations(for: records[row], at: row)
        }
    }
}
