import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// The trace's `origin` field (CLI.md): written after `value`, read back strictly, counted in
/// the history's size.
@Suite struct TraceOriginTests {
    private func line(_ event: TraceEvent) -> String {
        var buffer: [UInt8] = []
        event.appendJSONLine(to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test func writtenAndReadBack() throws {
        let event = TraceEvent(
            seq: 3,
            time: 0.5,
            kind: .callback,
            scene: "A",
            name: "viewDidLoad",
            viewController: "Detail",
            origin: "app"
        )
        let text = line(event)
        #expect(
            text
                == #"{"seq":3,"t":0.500000,"type":"callback","scene":"A","name":"viewDidLoad","vc":"Detail","origin":"app"}"#
                + "\n"
        )
        #expect(try TraceEvent(jsonLine: Array(text.utf8)) == event)
        // Absent for host requests.
        #expect(!line(TraceEvent(seq: 1, kind: .callback, scene: "A", name: "viewDidLoad")).contains("origin"))
    }

    @Test func unknownOrMistypedOriginIsRejected() {
        #expect(throws: TraceDecodingError.unknownValue(field: "origin", value: "host")) {
            try TraceEvent(jsonLine: Array(#"{"seq":1,"t":0,"type":"callback","name":"n","origin":"host"}"#.utf8))
        }
        #expect(throws: TraceDecodingError.wrongType(field: "origin", expected: "a string")) {
            try TraceEvent(jsonLine: Array(#"{"seq":1,"t":0,"type":"callback","name":"n","origin":1}"#.utf8))
        }
    }

    @Test func theTimelineMarksTheAppsCallbacks() {
        let event = TraceEvent(
            kind: .callback,
            scene: "A",
            name: "viewDidLoad",
            viewController: "Detail",
            origin: "app"
        )
        #expect(TimelineFormatter.describe(event).hasSuffix("Detail  (app)"))
        var host = event
        host.origin = nil
        #expect(!TimelineFormatter.describe(host).contains("app"))
    }

    /// A reclaimed app process has no scene to show it: the host's line names its app and pid.
    @Test func theTimelineNamesAReclaimedAppProcess() {
        let event = TraceEvent(kind: .host, name: TraceEvent.appReclaimedName, pid: 42, app: "Mail")
        #expect(TimelineFormatter.describe(event) == "appReclaimed  app Mail, pid 42")
        #expect(TimelineFormatter.render([event]).contains("appReclaimed  app Mail, pid 42"))
        #expect(TimelineFormatter.describe(TraceEvent(kind: .host, name: "quit")) == "quit")
    }

    @Test func theTimelineShowsWhatASceneWasOpenedWith() {
        let event = TraceEvent(
            kind: .callback,
            scene: "A",
            name: "willConnectTo",
            value: .object(["url": .string("notes://1")])
        )
        #expect(TimelineFormatter.describe(event) == #"willConnectTo  {"url":"notes://1"}"#)
        let plain = TraceEvent(kind: .callback, scene: "A", name: "willConnectTo")
        #expect(TimelineFormatter.describe(plain) == "willConnectTo")
    }

    @Test func originCountsInTheSizeEstimate() {
        let plain = TraceEvent(kind: .callback, name: "viewDidLoad")
        var withOrigin = plain
        // Strings count by their heap bytes: a short one like "app" lives inline (0), so a long
        // one shows that the field is counted at all.
        withOrigin.origin = String(repeating: "a", count: 64)
        #expect(withOrigin.estimatedSize > plain.estimatedSize + 60)
    }
}
