// WRONG: the whole update is locked, but it is sent off to a global queue so the download need not wait: a download that has returned may not be counted yet, and a read of `finished` then shows too little.
import Foundation
import LabKit
import AtomicProperty

final class AtomicPropertyWrongUpdateInBackground: AtomicPropertyController {
    private let progress: AtomicPropertyProgress
    private let lock = NSLock()
    private var storedFinished = 0  // only touched with `lock` held

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    var finished: Int { lock.withLock { storedFinished } }

    func downloadFinished() {
        DispatchQueue.global().async {
            self.lock.withLock { self.storedFinished = self.progress.oneMore(than: self.storedFinished) }
        }
    }
}
