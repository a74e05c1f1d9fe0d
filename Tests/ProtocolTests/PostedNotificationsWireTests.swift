import Testing

@testable import Protocol

/// A callback's frame may carry the lifecycle notifications that followed it (`posted`): both
/// decoders read the count, and refuse one the callback cannot have posted, with a typed error
/// that says which field.
@Suite struct PostedNotificationsWireTests {
    @Test func theCountRoundTripsThroughBothDecoders() throws {
        var event = CallbackEvent(.sceneWillResignActive)
        event.posted = 2
        var bytes: [UInt8] = []
        WorkerMessage.callback(event).encode(into: &bytes)
        #expect(
            String(decoding: bytes, as: UTF8.self) == #"{"type":"callback","name":"sceneWillResignActive","posted":2}"#
                + "\n"
        )
        let frame = Array(bytes.dropLast())
        #expect(try WorkerMessage(frame: frame) == .callback(event))
        #expect(frame.withUnsafeBytes { try? WorkerMessage(generalFrame: $0) } == .callback(event))
        #expect(frame.withUnsafeBytes { FrameShapes.message($0) } == .callback(event))
    }

    @Test(arguments: [
        // More than the callback posts.
        #"{"type":"callback","name":"sceneWillResignActive","posted":3}"#,
        // A callback that posts none.
        #"{"type":"callback","name":"viewDidLoad","vc":"Root","posted":1}"#,
        // Not a count.
        #"{"type":"callback","name":"sceneDidBecomeActive","posted":0}"#,
        #"{"type":"callback","name":"sceneDidBecomeActive","posted":-1}"#,
        #"{"type":"callback","name":"sceneDidBecomeActive","posted":1.5}"#,
        // Only on a callback of a host request: an app's own change posts none.
        #"{"type":"callback","name":"sceneDidBecomeActive","posted":1,"origin":"app"}"#,
    ])
    func aCountTheCallbackCannotHavePostedIsRefused(frame: String) {
        expectRefusedByBothDecoders(frame, code: .invalidParameters, naming: "posted")
    }
}

/// `frame` is left to the general path by the fast one, which refuses it with `code` and a
/// message that names the field `field`.
func expectRefusedByBothDecoders(
    _ frame: String,
    code: ProtocolError.Code,
    naming field: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let bytes = Array(frame.utf8)
    #expect(bytes.withUnsafeBytes { FrameShapes.message($0) } == nil, sourceLocation: sourceLocation)
    do {
        _ = try WorkerMessage(frame: bytes)
        Issue.record("accepted \(frame)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.code == code, sourceLocation: sourceLocation)
        #expect(error.message.contains(field), sourceLocation: sourceLocation)
    }
}
