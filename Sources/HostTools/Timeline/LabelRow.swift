/// Places the text labels of one row of the SVG timeline (a scene's bar, the host row) so
/// that none covers a marker or another label. A worker killed and respawned within a
/// millisecond puts its spawn marker right after the exit's X: a label always drawn right
/// of its marker would hide it.
///
/// Each label goes where it moves least from its marker: right of it, left of it
/// (right-aligned), or just past whatever blocks both sides. When even that is far from the
/// marker (the label would read as another marker's), the next, shorter text is tried, and
/// failing all of them the label is left out: the marker's `<title>` still says it.
///
/// ```swift
/// var row = LabelRow(bounds: 100...900)
/// row.block(center: 300, halfWidth: 6)                 // every marker first
/// let label = row.place(["killed SIGKILL", "killed"], beside: 296, halfWidth: 6) { Double($0.count) * 6.9 }
/// ```
import HostProcess

package struct LabelRow {
    /// Where a label goes: `x` is its left edge (`anchor` `.start`) or right edge (`.end`).
    package struct Placement: Equatable {
        package enum Anchor: String { case start, end }
        package var text: String
        package var x: Double
        package var anchor: Anchor
    }

    /// The horizontal range labels must stay within.
    package let bounds: ClosedRange<Double>
    /// The space kept between a label and a marker or another label (the text's white halo
    /// takes part of it).
    package let gap: Double
    /// How far past its usual place (right next to its marker) a label may go before it no
    /// longer reads as that marker's.
    package let maximumShift: Double
    /// What labels may not cover: the markers, then each label placed; sorted by left edge,
    /// so that a label looks only at its neighbourhood (a stress trace has thousands of
    /// markers on one track).
    package private(set) var taken: [ClosedRange<Double>] = []
    /// The widest range in `taken`: how far left of a window an overlapping one may start.
    private var widest = 0.0
    /// False after `block` until the next placement sorts `taken`.
    private var isSorted = true

    package init(bounds: ClosedRange<Double>, gap: Double = 3, maximumShift: Double = 24) {
        self.bounds = bounds
        self.gap = gap
        self.maximumShift = maximumShift
    }

    /// Keeps labels off `center ± halfWidth` (a marker's glyph).
    package mutating func block(center: Double, halfWidth: Double) {
        guard center.isFinite else { return }  // a range of NaN would trap
        let range = (center - halfWidth)...(center + halfWidth)
        taken.append(range)
        widest = max(widest, range.upperBound - range.lowerBound)
        isSorted = false
    }

    /// Places the first of `texts` (longest first) that fits near the marker whose glyph is
    /// `center ± halfWidth`; `width` measures a text. Nil when none fits.
    package mutating func place(
        _ texts: [String],
        beside center: Double,
        halfWidth: Double,
        width: (String) -> Double
    ) -> Placement? {
        guard center.isFinite else { return nil }
        let clearance = halfWidth + gap
        for text in texts {
            if let placement = nearestFree(text, width: width(text), center: center, clearance: clearance) {
                return placement
            }
        }
        return nil
    }

    private mutating func nearestFree(
        _ text: String,
        width: Double,
        center: Double,
        clearance: Double
    ) -> Placement? {
        sortIfNeeded()
        let rightmostStart = center + clearance
        let leftmostEnd = center - clearance
        let reach = maximumShift + width + gap
        let free = freeIntervals(around: (leftmostEnd - reach)...(rightmostStart + reach))
        // The first free interval right of the marker that holds the label, and the last one
        // left of it: one pass each way over the neighbourhood, however dense.
        var right: Double?
        for interval in free {
            let start = max(interval.lowerBound, rightmostStart)
            if start - rightmostStart > maximumShift { break }
            if start + width <= interval.upperBound {
                right = start
                break
            }
        }
        var left: Double?
        for interval in free.reversed() {
            let end = min(interval.upperBound, leftmostEnd)
            if leftmostEnd - end > maximumShift { break }
            if end - width >= interval.lowerBound {
                left = end
                break
            }
        }
        let placement: Placement
        let range: ClosedRange<Double>
        // On a tie, right: the side a reader looks at first.
        if let right, right - rightmostStart <= leftmostEnd - (left ?? -.infinity) {
            placement = Placement(text: text, x: right, anchor: .start)
            range = right...(right + width)
        } else if let left {
            placement = Placement(text: text, x: left, anchor: .end)
            range = (left - width)...left
        } else {
            return nil
        }
        insert(range)
        return placement
    }

    /// The stretches of `window`, within `bounds`, at least `gap` away from every obstacle,
    /// left to right.
    private func freeIntervals(around window: ClosedRange<Double>) -> [ClosedRange<Double>] {
        let lower = max(window.lowerBound, bounds.lowerBound)
        let upper = min(window.upperBound, bounds.upperBound)
        guard lower < upper else { return [] }
        var free: [ClosedRange<Double>] = []
        var cursor = lower
        for obstacle in neighbourhood(window) {
            let blockedFrom = obstacle.lowerBound - gap
            if blockedFrom > cursor { free.append(cursor...min(blockedFrom, upper)) }
            cursor = max(cursor, obstacle.upperBound + gap)
            if cursor >= upper { return free }
        }
        free.append(cursor...upper)
        return free
    }

    private mutating func insert(_ range: ClosedRange<Double>) {
        taken.insert(range, at: firstIndex(startingAtOrAfter: range.lowerBound))
        widest = max(widest, range.upperBound - range.lowerBound)
    }

    /// Markers are blocked in any order, then sorted once: inserting each in place would
    /// cost a pass over the array per marker.
    private mutating func sortIfNeeded() {
        guard !isSorted else { return }
        taken.sort { $0.lowerBound < $1.lowerBound }
        isSorted = true
    }

    /// The obstacles that may come within `gap` of `window`.
    private func neighbourhood(_ window: ClosedRange<Double>) -> ArraySlice<ClosedRange<Double>> {
        let from = firstIndex(startingAtOrAfter: window.lowerBound - widest - gap)
        let to = firstIndex(startingAtOrAfter: window.upperBound + gap)
        return taken[from..<max(from, to)]
    }

    /// The index of the first range in `taken` whose left edge is at or after `x`.
    private func firstIndex(startingAtOrAfter x: Double) -> Int {
        var low = 0
        var high = taken.count
        while low < high {
            let middle = (low + high) / 2
            if taken[middle].lowerBound < x { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
