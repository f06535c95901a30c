import Foundation
@_spi(LabAuthoring) import LabKit

// MARK: - The screen, the mailbox and the fetch (harness side)

/// The mail app's inbox header: how many new messages there are, and a spinner that turns
/// while the app checks. Both are UI stand-ins: main thread only.
public final class CompletionUIScreen: @unchecked Sendable {
    public let newMessages = ScreenLabel("new messages", text: "-")
    public let spinner = ScreenFlag("spinner")
    /// A view: released on the main thread, or a fixed variant fails (`ScreenLifetime`).
    private let lifetime = ScreenLifetime("mail screen")

    public init() {}
}

/// The mail server, as one check for new mail sees it. Asking is slow (a page of headers at a
/// time); the answer never changes, so any thread may ask.
public final class CompletionUIMailbox: Sendable {
    /// How many pages of headers one check reads.
    static let pages = 3
    private let count: Int

    init(newMessages: Int) { count = newMessages }

    /// Reads the headers, page by page (each page is the checkpoint "mail.page"), and returns
    /// how many messages are new.
    public func countNewMessages() -> Int {
        SlowWork.step()
        for _ in 0..<Self.pages { Checkpoint.hit("mail.page") }
        return count
    }

    /// The right answer, for the scenario.
    var expected: Int { count }
}

/// The app's check for new mail, as an operation. It is correct as it is: it asks the mailbox
/// on the queue's thread and keeps the answer in `newMessages`, which is set once `main()` has
/// run, before the operation counts as finished.
public final class CompletionUIFetchOperation: Operation, @unchecked Sendable {
    private let mailbox: CompletionUIMailbox
    /// How many messages are new: nil until the operation has run.
    public private(set) var newMessages: Int?

    public init(mailbox: CompletionUIMailbox) {
        self.mailbox = mailbox
    }

    public override func main() {
        if isCancelled { return }
        newMessages = mailbox.countNewMessages()
    }
}

/// The user's action, as every variant must offer it. Called on the main thread: check the
/// mailbox in the background (with a `CompletionUIFetchOperation`), turning the spinner on at
/// once; when the check is done, show the count and stop the spinner.
public protocol CompletionUIController: AnyObject {
    func refresh(_ mailbox: CompletionUIMailbox)
}

// MARK: - The lab

public enum CompletionUILab: LabScenario {
    public static let info = LabInfo(
        id: "completion-ui",
        title: "An operation's completion block updates the screen from a background thread",
        source: "source article 001 (NSOperation tutorial: \"no guarantee the completion block runs on the main thread\"); source article 000 on UI updates",
        bug: "the fetch operation's completionBlock sets the label and stops the spinner itself, but completion blocks run on a background thread",
        invariants: [
            "every UI access happens on the main thread",
            "the spinner turns as soon as the user taps Refresh",
            "once the check is done, the screen shows its count and the spinner has stopped",
            "the mailbox is read in the background, never on the main thread (the screen would freeze)",
        ],
        expectedDetectors: [.invariant],
        defaultIterations: [.scripted: 3, .stress: 60]  // the broken block is caught in its first iteration
    )

    public static let variants: [LabVariant<CompletionUIScreen, CompletionUIController>] = [
        LabVariant(.broken) { CompletionUIBroken(screen: $0) },
    ]

    public static func play(_ variant: LabVariant<CompletionUIScreen, CompletionUIController>, in run: ScenarioRun) {
        let screen = CompletionUIScreen()
        let controller = variant.make(screen)

        /// The user taps Refresh and waits for the answer; then the screen must show it.
        func refresh(_ mailbox: CompletionUIMailbox, during: (() -> Void)? = nil) {
            run.user("taps Refresh (\(mailbox.expected) new messages on the server)") { controller.refresh(mailbox) }
            run.expect(screen.spinner.isOn(), "the user tapped Refresh but the spinner is not turning")
            during?()
            if !run.settle(until: { !screen.spinner.isOn() }) {
                run.fail("the spinner still turns once the app is quiet after Refresh: the check's result never reached the screen")
            }
            let shown = screen.newMessages.text()
            run.expect(shown == String(mailbox.expected),
                       "the server has \(mailbox.expected) new messages, but the screen shows \(shown)")
        }

        switch run.mode {
        case .scripted:
            // The story: the check is held half way through its pages while the user looks at
            // the screen (the main thread is free: it spins its run loop). Then the check ends
            // and its completion block runs, on whatever thread the queue finished it on.
            let mailbox = CompletionUIMailbox(newMessages: 7)
            let halfWay = run.pause(at: "mail.page", hit: 2)
            refresh(mailbox) {
                halfWay.whilePaused {
                    run.spin(for: 0.02)
                }
            }
        case .stress:
            // A few checks, one after the other, at random moments, with random answers.
            for _ in 0..<2 {
                run.randomPause(upTo: 2)
                refresh(CompletionUIMailbox(newMessages: 1 + Int(run.random.next(upperBound: UInt64(99)))))
            }
        }
        SlowWork.expectOffMain("mail check(s)", in: run)
        withExtendedLifetime(controller) {}
    }
}
