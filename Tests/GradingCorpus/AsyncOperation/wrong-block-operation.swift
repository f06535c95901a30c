// WRONG: no subclass at all: a BlockOperation whose block sends the request. The block returns
// as soon as the request is sent, so the operation is finished long before the answer arrives:
// a dependent starts before the result it depends on exists. And a BlockOperation cancelled
// before it started never runs its block, so its completion never runs.
import Foundation
import LabKit
import AsyncOperation

struct AsyncOperationWrongBlockOperation: AsyncOperationFactory {
    let network: FakeNetwork

    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation {
        BlockOperation { [network] in
            network.send(endpoint) { answer in completion(answer) }
        }
    }
}
