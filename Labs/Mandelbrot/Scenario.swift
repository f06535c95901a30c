import Foundation
@_spi(LabAuthoring) import LabKit

// MARK: - The picture

/// Which part of the complex plane to draw: the centre, and how much of the plane one pixel covers.
/// `Sendable`: a value of constants.
public struct MandelbrotViewport: Hashable, Sendable, CustomStringConvertible {
    public let centerX: Double
    public let centerY: Double
    public let unitsPerPixel: Double
    public let name: String

    public var description: String { name }

    /// The whole set, then ever closer zooms into the "seahorse valley" and around it.
    static let wholeSet = MandelbrotViewport(centerX: -0.6, centerY: 0, unitsPerPixel: 3.0 / 32, name: "whole set")
    static let valley = MandelbrotViewport(centerX: -0.75, centerY: 0.1, unitsPerPixel: 0.6 / 32, name: "seahorse valley")
    static let seahorse = MandelbrotViewport(centerX: -0.745, centerY: 0.11, unitsPerPixel: 0.12 / 32, name: "seahorse")
    static let antenna = MandelbrotViewport(centerX: -1.75, centerY: 0, unitsPerPixel: 0.3 / 32, name: "antenna")
    static let bulb = MandelbrotViewport(centerX: -0.12, centerY: 0.75, unitsPerPixel: 0.5 / 32, name: "top bulb")
    static let all = [wholeSet, valley, seahorse, antenna, bulb]
}

/// A small greyscale picture, row by row: one byte per pixel (how fast that point escaped).
/// A value: copying it copies (lazily) the pixels. `Sendable`: a copy shares nothing with the original.
public struct MandelbrotBitmap: Sendable {
    public static let width = 32
    public static let height = 24

    public var pixels: [UInt8]

    /// A fresh, all-black picture to render into (the source article's "make a bitmap context").
    public init() { pixels = [UInt8](repeating: 0, count: MandelbrotBitmap.width * MandelbrotBitmap.height) }

    /// FNV-1a over the pixels: two pictures are the same picture when their checksums match.
    var checksum: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for pixel in pixels { hash = (hash ^ UInt64(pixel)) &* 0x100_0000_01b3 }
        return hash
    }
}

// MARK: - The slow work (harness side)

/// The number crunching: a real escape-time render of the Mandelbrot set. It keeps no state, so
/// any thread may use it; the only shared memory it touches is the bitmap it is handed.
/// After every band of rows it reaches the checkpoint "mandelbrot.rows": the moment a render is
/// part done.
public final class MandelbrotRenderer: Sendable {
    static let maxIterations = 60
    /// One checkpoint per band of 3 rows: 8 per render.
    static let rowsPerCheckpoint = 3
    static let bandsPerRender = MandelbrotBitmap.height / rowsPerCheckpoint

    public init() {}

    /// Fill `bitmap` with the picture of `viewport`, top row first.
    public func render(_ viewport: MandelbrotViewport, into bitmap: inout MandelbrotBitmap) {
        Checkpoint.hit("mandelbrot.render")
        for y in 0..<MandelbrotBitmap.height {
            for x in 0..<MandelbrotBitmap.width {
                bitmap.pixels[y * MandelbrotBitmap.width + x] = Self.escapeTime(viewport, x, y)
            }
            if (y + 1) % Self.rowsPerCheckpoint == 0 { Checkpoint.hit("mandelbrot.rows") }
        }
        Checkpoint.hit("mandelbrot.done")
    }

    /// How many renders have started since the iteration began.
    static var rendersStarted: Int { Checkpoint.hits("mandelbrot.render") }

    /// Renders started and not yet finished.
    static var rendersInFlight: Int { rendersStarted - Checkpoint.hits("mandelbrot.done") }

    /// How many bands of rows all renders have finished since the iteration began.
    static var bandsRendered: Int { Checkpoint.hits("mandelbrot.rows") }

    static func escapeTime(_ viewport: MandelbrotViewport, _ x: Int, _ y: Int) -> UInt8 {
        let cx = viewport.centerX + Double(x - MandelbrotBitmap.width / 2) * viewport.unitsPerPixel
        let cy = viewport.centerY + Double(y - MandelbrotBitmap.height / 2) * viewport.unitsPerPixel
        var zx = 0.0, zy = 0.0
        var iteration = 0
        while iteration < maxIterations && zx * zx + zy * zy <= 4 {
            (zx, zy) = (zx * zx - zy * zy + cx, 2 * zx * zy + cy)
            iteration += 1
        }
        return UInt8(iteration * 255 / maxIterations)
    }

    /// The checksum of a complete, quiet render of each viewport, worked out once on the main
    /// thread (no checkpoints, no other thread involved).
    static let referenceChecksums: [MandelbrotViewport: UInt64] = {
        var table: [MandelbrotViewport: UInt64] = [:]
        for viewport in MandelbrotViewport.all {
            var bitmap = MandelbrotBitmap()
            for y in 0..<MandelbrotBitmap.height {
                for x in 0..<MandelbrotBitmap.width {
                    bitmap.pixels[y * MandelbrotBitmap.width + x] = escapeTime(viewport, x, y)
                }
            }
            table[viewport] = bitmap.checksum
        }
        precondition(Set(table.values).count == table.count, "every viewport must give a different picture")
        return table
    }()
}

// MARK: - The screen (harness side)

/// A stand-in for the view's place on screen. Main thread only, like UIKit: the view asks for a
/// redraw with `setNeedsDisplay()`, and when the system lets it draw, it hands its picture to
/// `draw(_:)`. The screen keeps the checksum of every frame it showed.
/// `@MainActor`, as UIKit's views are; `@preconcurrency`, as UIKit is to code written before Swift's
/// concurrency checks: the labs' Swift 5 code still compiles, and the main-thread checker still
/// sees a call from another thread.
@preconcurrency @MainActor
public final class MandelbrotScreen {
    private(set) var needsDisplay = false
    private(set) var frames: [UInt64] = []
    private(set) var closed = false
    /// A view: released on the main thread, or a fixed variant fails (`ScreenLifetime`).
    private let lifetime = ScreenLifetime("Mandelbrot view")

    init() {}

    /// The view's picture changed: draw it at the next display pass.
    public func setNeedsDisplay(file: StaticString = #filePath, line: UInt = #line) {
        MainThreadChecker.shared.check("setNeedsDisplay()", file: file, line: line)
        if closed {
            MainThreadChecker.shared.record("setNeedsDisplay() on a view that went away", file: file, line: line)
        }
        needsDisplay = true
    }

    /// Called from the view's `draw()`: put `bitmap` on screen (nil: nothing to show yet).
    public func draw(_ bitmap: MandelbrotBitmap?, file: StaticString = #filePath, line: UInt = #line) {
        MainThreadChecker.shared.check("draw", file: file, line: line)
        if let bitmap { frames.append(bitmap.checksum) }
    }

    /// One display pass, as the system runs it: if a redraw was asked for, the view draws.
    func displayIfNeeded(_ view: MandelbrotController) {
        guard needsDisplay, !closed else { return }
        needsDisplay = false
        view.draw()
    }

    func close() { closed = true }
}

// MARK: - The lab

/// What each mandelbrot variant gets from the harness. `Sendable`: a main-actor screen and a stateless renderer.
public struct MandelbrotEnvironment: Sendable {
    public let screen: MandelbrotScreen
    public let renderer: MandelbrotRenderer
}

/// The view, as every variant must offer it. Everything is called on the main thread.
public protocol MandelbrotController: AnyObject {
    /// The user asks for this part of the set: render it in the background, then redraw.
    func show(_ viewport: MandelbrotViewport)
    /// The system lets the view draw itself (UIKit's `draw(_:)`): hand the current picture to
    /// `screen.draw(_:)`. The system may call this at any moment, not only after setNeedsDisplay.
    func draw()
}

public enum MandelbrotLab: LabScenario {
    public static let info = LabInfo(
        id: "mandelbrot",
        title: "Rendering a fractal in the background while the view draws it",
        source: "source article 002 (the Mandelbrot view: a manual thread, then NSOperation, then GCD)",
        bug: "the view and the background render share one bitmap, so drawing can show a half-rendered frame",
        invariants: [
            "every frame shown is a complete render of a viewport the user asked for",
            "once quiet, the view shows the viewport asked for last",
            "renders still waiting to start when the view goes away never start (scripted)",
            "nothing reaches the view after it went away; the screen is used on the main thread only",
        ],
        expectedDetectors: [.tsan, .invariant],
        defaultIterations: [.scripted: 3, .explore: 13, .stress: 100]
    )

    public static let variants: [LabVariant<MandelbrotEnvironment, MandelbrotController>] = [
        LabVariant(.broken) { MandelbrotBroken(environment: $0) },
    ]

    public static func play(_ variant: LabVariant<MandelbrotEnvironment, MandelbrotController>, in run: ScenarioRun) {
        let screen = MandelbrotScreen()
        let references = MandelbrotRenderer.referenceChecksums
        var view: MandelbrotController? = variant.make(MandelbrotEnvironment(screen: screen, renderer: MandelbrotRenderer()))
        var requested: [MandelbrotViewport] = []

        func show(_ viewport: MandelbrotViewport) {
            requested.append(viewport)
            view?.show(viewport)
        }
        /// The system redraws the view now, asked or not (it was uncovered, rotated...).
        func redrawNow() { view?.draw() }
        /// Spin the main run loop, running display passes, until no render is running and the
        /// newest viewport is on screen, or the app is quiet without it (a view that never gets
        /// there); then on, displaying, until the app is quiet, so that a late hand-over of an
        /// older render (a view that renders out of order) still shows up before the check.
        func displayUntilQuiet() {
            run.waitUntilDoneOrQuiet {
                if let view { screen.displayIfNeeded(view) }
                let newestShown = screen.frames.last == requested.last.flatMap { references[$0] }
                return newestShown && !screen.needsDisplay && MandelbrotRenderer.rendersInFlight == 0
            }
            run.settle(until: {
                if let view { screen.displayIfNeeded(view) }
                return !screen.needsDisplay
            })
        }
        /// A band of rows a little way into the next render.
        func midNextRender(_ bands: Int) -> ScriptedPause {
            run.pause(at: "mandelbrot.rows", hit: MandelbrotRenderer.bandsRendered + bands)
        }

        /// Every frame shown must be a whole picture of something the user asked for.
        var framesChecked = 0
        func checkFramesShown() {
            let complete = Set(requested.map { references[$0]! })
            for index in framesChecked..<screen.frames.count where !complete.contains(screen.frames[index]) {
                run.fail("frame \(index + 1) is not a complete render of any requested viewport (a torn, "
                         + "half-rendered frame); requested so far: \(requested.map(\.name).joined(separator: ", "))")
            }
            framesChecked = screen.frames.count
        }

        /// Once quiet, the last frame shown must be the whole picture the user asked for last.
        func checkNewest() {
            checkFramesShown()
            guard let newest = requested.last else { return }
            let shown = screen.frames.last.flatMap { frame in requested.first { references[$0] == frame } }
            run.expect(shown == newest, "once quiet, the view shows \(shown?.name ?? "no complete frame") but the user last asked for \(newest.name)")
        }

        var rendersWhenGone = 0
        switch run.mode {
        case .scripted:
            // 1. The view asks for the whole set; half way through the render, the system redraws it.
            let halfWay = midNextRender(MandelbrotRenderer.bandsPerRender / 2)
            show(.wholeSet)
            halfWay.whilePaused { redrawNow() }
            displayUntilQuiet()
            checkFramesShown()

            // 2. Two quick zooms: the second comes while the first is still rendering, and gets
            //    every chance to finish first (a view that renders both at once shows the older last).
            let zooming = midNextRender(3)
            show(.valley)
            zooming.whilePaused {
                redrawNow()
                show(.seahorse)
                run.settle()  // everything but the held render has done all it can
            }
            displayUntilQuiet()
            checkNewest()

            // 3. A render is running and another is asked for when the view goes away. Whatever
            //    queue the view sends it to, it has no free thread until the view has gone (as
            //    on a busy pool), so it is still waiting to start: it must never start (cancelled
            //    with the view, or a block that first sees the view went away).
            let leaving = midNextRender(3)
            show(.antenna)
            leaving.whilePaused {
                run.startingLate {
                    show(.bulb)
                    run.settle()  // everything that needs no new start has done what it can
                    screen.close()
                    rendersWhenGone = MandelbrotRenderer.rendersStarted
                    view = nil
                }
            }
        case .stress:
            var choices = MandelbrotViewport.all
            // A few zooms at random moments, with the system redrawing now and then.
            for _ in 0..<3 {
                let viewport = choices.remove(at: Int(run.random.next(upperBound: UInt64(choices.count))))
                show(viewport)
                run.randomPause(upTo: 2)
                if run.random.next(upperBound: UInt64(2)) == 0 { redrawNow() }
                run.randomPause(upTo: 1)
                if let view { screen.displayIfNeeded(view) }
            }
            displayUntilQuiet()
            checkNewest()
            // One more zoom, and the view goes away at a random moment.
            show(choices[0])
            run.randomPause(upTo: 2)
            screen.close()
            rendersWhenGone = MandelbrotRenderer.rendersStarted
            view = nil
        }

        // The view is gone: let whatever is still running finish.
        run.settle()
        let lateRenders = MandelbrotRenderer.rendersStarted - rendersWhenGone
        run.record("renders started after the view went away", Double(lateRenders))
        if run.mode == .scripted {
            run.expect(lateRenders == 0,
                       "\(lateRenders) render(s) started after the view went away (queued renders should be cancelled)")
        }

        checkFramesShown()

    }
}
