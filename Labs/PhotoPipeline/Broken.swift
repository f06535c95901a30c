import Foundation
import LabKit

/// The tutorial's photo record: one object per row, shared by the table and the operations.
final class PhotoPipelineRecord {
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

/// Downloads a record's picture and stores it in the record, then tells its owner.
final class PhotoPipelineDownloader: Operation, @unchecked Sendable {
    let record: PhotoPipelineRecord
    let row: Int
    private let network: PhotoPipelineNetwork
    var onFinished: ((PhotoPipelineDownloader) -> Void)?

    init(record: PhotoPipelineRecord, row: Int, network: PhotoPipelineNetwork) {
        self.record = record
        self.row = row
        self.network = network
    }

    override func main() {
        if isCancelled { return }
        // BUG: the download fills the shared record's picture in place, on this thread, while the
        // table reads the same record on the main thread (cell(forRow:)): a data race, and the
        // table can draw half a picture. Like a plain "load this URL", it cannot stop half way.
        let complete = network.download(record.url, into: &record.image)
        if isCancelled { return }
        if !complete {
            record.isFailed = true  // BUG: the shared record again, written off the main thread.
        }
        onFinished?(self)
    }
}

/// Applies the sepia filter to a record's picture, in place, then tells its owner.
final class PhotoPipelineFiltration: Operation, @unchecked Sendable {
    let record: PhotoPipelineRecord
    let row: Int
    private let filter: PhotoPipelineSepiaFilter
    var onFinished: ((PhotoPipelineFiltration) -> Void)?

    init(record: PhotoPipelineRecord, row: Int, filter: PhotoPipelineSepiaFilter) {
        self.record = record
        self.row = row
        self.filter = filter
    }

    override func main() {
        if isCancelled { return }
        // BUG: nothing made this operation wait for the download. If it runs first, it finds no
        // picture and gives up without a word (the row stays "in progress", unfiltered); if it
        // runs half way through the download, it filters half a picture.
        guard let raw = record.image else { return }
        guard let sepia = filter.apply(to: raw, isCancelled: { self.isCancelled }) else { return }
        if isCancelled { return }
        record.image = sepia  // BUG: the shared record again, written off the main thread.
        record.isFiltered = true
        onFinished?(self)
    }
}

/// The list screen, as the tutorial builds it: two queues, two "in progress" dictionaries,
/// suspend while scrolling, and cancel the rows that scrolled away.
final class PhotoPipelineBroken: PhotoPipelineController {
    private let table: PhotoPipelineTable
    private let network: PhotoPipelineNetwork
    private let filter: PhotoPipelineSepiaFilter
    private let records: [PhotoPipelineRecord]
    private var downloadsInProgress: [Int: PhotoPipelineDownloader] = [:]
    private var filtrationsInProgress: [Int: PhotoPipelineFiltration] = [:]
    private let downloadQueue = OperationQueue()
    private let filtrationQueue = OperationQueue()

    init(environment: PhotoPipelineEnvironment) {
        table = environment.table
        network = environment.network
        filter = environment.filter
        records = environment.photos.map(PhotoPipelineRecord.init)
        downloadQueue.name = "Download Queue"
        downloadQueue.maxConcurrentOperationCount = 1
        filtrationQueue.name = "Image Filtration Queue"
        filtrationQueue.maxConcurrentOperationCount = 1
    }

    func cell(forRow row: Int) -> PhotoPipelineCell {
        let record = records[row]
        if let image = record.image { return .photo(image) }
        if record.isFailed { return .failed }
        if !table.isScrolling() { startOperations(for: record, at: row) }
        return .placeholder
    }

    private func startOperations(for record: PhotoPipelineRecord, at row: Int) {
        if !record.hasImage { startDownload(for: record, at: row) }
        if !record.isFiltered { startFiltration(for: record, at: row) }
    }

    private func startDownload(for record: PhotoPipelineRecord, at row: Int) {
        guard downloadsInProgress[row] == nil else { return }
        let downloader = PhotoPipelineDownloader(record: record, row: row, network: network)
        downloader.onFinished = { _ in
            // BUG: this callback runs on the operation's thread, but the bookkeeping belongs to the
            // main thread (scrolling reads and changes it there). Only the reload goes to main.
            self.downloadsInProgress[row] = nil
            OperationQueue.main.addOperation { self.table.reloadRow(row) }
        }
        downloadsInProgress[row] = downloader
        downloadQueue.addOperation(downloader)
    }

    private func startFiltration(for record: PhotoPipelineRecord, at row: Int) {
        guard filtrationsInProgress[row] == nil else { return }
        let filtration = PhotoPipelineFiltration(record: record, row: row, filter: filter)
        filtration.onFinished = { _ in
            self.filtrationsInProgress[row] = nil  // BUG: main-thread bookkeeping, off the main thread.
            OperationQueue.main.addOperation { self.table.reloadRow(row) }
        }
        filtrationsInProgress[row] = filtration
        filtrationQueue.addOperation(filtration)
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
