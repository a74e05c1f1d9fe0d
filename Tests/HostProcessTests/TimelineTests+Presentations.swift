import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

/// What the timeline draws of presentations and of a scene leaving its app's process, on
/// traces built by hand.
@Suite struct TimelinePresentationTests {
    private static func callback(
        _ time: Double,
        _ name: CallbackName,
        _ vc: String,
        op: String,
        value: JSONValue? = nil
    ) -> TraceEvent {
        TraceEvent(
            time: time,
            kind: .callback,
            scene: "A",
            name: name.rawValue,
            viewController: vc,
            value: value,
            op: op
        )
    }

    /// A controller presented over a presented one is a span of its own (it was dropped), with
    /// the style its `loadView` recorded (an alert was drawn as a page sheet); a controller
    /// that records none is a full-screen one when its presenter disappears behind it.
    @Test func presentationsOverPresentationsAreSpansOfTheirOwnWithTheirStyle() {
        var tracker = PresentationTracker()
        let events = [
            Self.callback(1, .loadView, "Sheet", op: "present", value: .string("pageSheet")),
            Self.callback(1.1, .viewWillAppear, "Sheet", op: "present"),
            Self.callback(2, .loadView, "Alert", op: "present", value: .string("alert")),
            Self.callback(2.1, .viewWillAppear, "Alert", op: "present"),
            Self.callback(3, .deinit, "Alert", op: "dismiss"),
            // Loaded before it was presented: no loadView, no style said.
            Self.callback(4, .viewWillAppear, "Cover", op: "present"),
            Self.callback(4.1, .viewWillDisappear, "Sheet", op: "present"),
        ]
        for event in events { tracker.add(event) }
        let spans = tracker.finish(at: 10)
        #expect(spans.map(\.label) == ["Alert (alert)", "Sheet (pageSheet)", "Cover (fullScreen)"])
        #expect(spans.map(\.isOpen) == [false, true, true])
        #expect(spans.map(\.end) == [3, 10, 10])
    }

    /// A scene that left its app's process (which runs on) is drawn with a mark of its own,
    /// in the legend too, not with an exit's X.
    @Test func aDetachedSceneIsNotDrawnAsAnExit() {
        let events = [
            TraceEvent(seq: 1, time: 0, kind: .host, name: "started"),
            TraceEvent(seq: 2, time: 0.1, kind: .process, scene: "A", processEvent: .spawned, pid: 5),
            TraceEvent(seq: 3, time: 0.2, kind: .process, scene: "A", processEvent: .detached, pid: 5),
            TraceEvent(seq: 4, time: 0.3, kind: .host, name: "quit"),
        ]
        let svg = SVGTimeline.render(events)
        let marker = svg.range(of: #"<g class="marker detached">"#)
        #expect(marker != nil)
        if let marker {
            let group = svg[marker.upperBound...].prefix { $0 != "\n" }
            #expect(group.contains("<circle") && group.contains("stroke-dasharray"), "\(group)")
        }
        #expect(svg.contains("left its app&apos;s process") || svg.contains("left its app's process"))
    }
}
