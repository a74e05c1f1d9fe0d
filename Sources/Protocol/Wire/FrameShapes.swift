/// The decoding fast path for the frames of every round trip, the mirror of `FrameScratch`:
/// a request without parameters (`{"id":7,"op":"deactivate"}`), a push, `addChild` or
/// `removeChild` with only its `vc` (`{"id":8,"op":"push","vc":"Detail"}`), a `present`
/// (`"vc"`, `"style"`), a swipe (`"completes"`) or a tab switch (`"index"`), a reply without a result
/// (`{"type":"reply","id":7}`) and a callback with at most a `vc` and the count of the
/// notifications it posted (`{"type":"callback","name":"viewDidAppear","vc":"Detail"}`,
/// `{"type":"callback","name":"sceneDidBecomeActive","posted":2,"reply":7}`), byte for byte as the
/// encoders write them. Such a frame is matched in place; the general path builds the
/// object's members first, which was 30 % of a worker's work per request (callgrind).
///
/// Anything else (whitespace, another field order, an escape, a byte outside printable
/// ASCII, a number that is not a plain non-negative integer, an unknown name) answers nil,
/// and the general path decides, errors included: the fast path accepts a subset of what the
/// general path does and gives the same result (a test compares them).
enum FrameShapes {
    static func request(_ frame: UnsafeRawBufferPointer) -> HostCommand? {
        request(frame, membersAt: 0)
    }

    /// `request(_:)` of the object whose members start at `start`, its `{` before them: 0 for
    /// a plain frame, the first byte after a scene tag for a tagged one (`SceneTag.Tagged`),
    /// which is then read where it lies. (Inlined: the plain frame's call, with 0, then has
    /// no test of `start` left.)
    @inline(__always)
    static func request(_ frame: UnsafeRawBufferPointer, membersAt start: Int) -> HostCommand? {
        var cursor = Cursor(frame, at: start)
        guard start == 0 ? cursor.literal(#"{"id":"#) : cursor.literal(#""id":"#), let id = cursor.integer(),
            cursor.literal(#","op":""#),
            let name = cursor.plainString(), let kind = OperationKind.byName[utf8: name]
        else { return nil }
        if let operation = kind.withoutParameters {
            guard cursor.literal(#""}"#), cursor.isAtEnd else { return nil }
            return .request(id: id, operation)
        }
        // The parameters of the navigation requests, in the order `FrameScratch` writes them.
        let operation: WorkerOperation
        switch kind {
        case .push, .addChild, .removeChild:
            guard cursor.literal(#"","vc":""#), let name = cursor.nonEmptyPlainString(), cursor.literal(#""}"#)
            else { return nil }
            let viewController = String(decoding: name, as: UTF8.self)
            switch kind {
            case .push: operation = .push(viewController: viewController, payload: nil)
            case .addChild: operation = .addChild(viewController: viewController)
            default: operation = .removeChild(viewController: viewController)
            }
        case .present:
            guard cursor.literal(#"","vc":""#), let name = cursor.nonEmptyPlainString(),
                cursor.literal(#"","style":""#), let styleName = cursor.plainString(),
                let style = PresentationStyle(rawValue: String(decoding: styleName, as: UTF8.self)),
                cursor.literal(#""}"#)
            else { return nil }
            operation = .present(viewController: String(decoding: name, as: UTF8.self), style: style)
        case .swipeDismiss, .swipeBack:
            guard cursor.literal(#"","completes":"#) else { return nil }
            let completes: Bool
            if cursor.literal("true}") {
                completes = true
            } else if cursor.literal("false}") {
                completes = false
            } else {
                return nil
            }
            operation = kind == .swipeBack ? .swipeBack(completes: completes) : .swipeDismiss(completes: completes)
        case .selectTab:
            guard cursor.literal(#"","index":"#), let index = cursor.integer(), cursor.literal("}") else { return nil }
            operation = .selectTab(index: index)
        default:
            return nil
        }
        guard cursor.isAtEnd else { return nil }
        return .request(id: id, operation)
    }

    static func message(_ frame: UnsafeRawBufferPointer) -> WorkerMessage? {
        message(frame, membersAt: 0)
    }

    /// `message(_:)` of the object whose members start at `start` (see `request(_:membersAt:)`).
    @inline(__always)
    static func message(_ frame: UnsafeRawBufferPointer, membersAt start: Int) -> WorkerMessage? {
        var cursor = Cursor(frame, at: start)
        guard start == 0 ? cursor.literal(#"{"type":""#) : cursor.literal(#""type":""#) else { return nil }
        if cursor.literal(#"reply","id":"#) {
            guard let id = cursor.integer(), cursor.literal("}"), cursor.isAtEnd else { return nil }
            return .reply(id: id, result: nil)
        }
        guard cursor.literal(#"callback","name":""#), let name = cursor.plainString(),
            let callback = CallbackName.byName[utf8: name]
        else { return nil }
        var viewController: String?
        if cursor.literal(#"","vc":""#) {
            guard let bytes = cursor.plainString(), bytes.count > 0 else { return nil }
            viewController = String(decoding: bytes, as: UTF8.self)
        }
        var event = CallbackEvent(callback, viewController: viewController)
        guard cursor.literal(#"""#) else { return nil }
        if cursor.literal(#","posted":"#) {
            // Out of range: the general path says why.
            guard let posted = cursor.integer(), posted >= 1, posted <= callback.postedNotifications.count else {
                return nil
            }
            event.posted = posted
        }
        if cursor.literal(#","reply":"#) {
            guard let reply = cursor.integer() else { return nil }
            event.reply = reply
        }
        guard cursor.literal("}"), cursor.isAtEnd else { return nil }
        return .callback(event)
    }

    /// Reads a frame from the front.
    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        init(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) {
            self.bytes = bytes
            self.offset = offset
        }

        var isAtEnd: Bool { offset == bytes.count }

        /// Consumes `text` if the frame continues with it.
        ///
        /// Inlined: each call site's literal is a constant, so its length and its words fold
        /// into the comparisons (called, it took about 150 instructions a literal).
        @inline(__always)
        mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - offset >= count else { return false }
            let matches = text.withUTF8Buffer { expected in
                let expected = UnsafeRawBufferPointer(expected)
                var index = 0
                // Eight bytes at a time: a byte loop cost about 100 instructions per literal,
                // and each frame of a round trip matches several.
                while count - index >= 8 {
                    let frameWord = bytes.loadUnaligned(fromByteOffset: offset + index, as: UInt64.self)
                    guard frameWord == expected.loadUnaligned(fromByteOffset: index, as: UInt64.self) else {
                        return false
                    }
                    index += 8
                }
                while index < count {
                    guard bytes[offset + index] == expected[index] else { return false }
                    index += 1
                }
                return true
            }
            if matches { offset += count }
            return matches
        }

        /// A JSON non-negative integer of at most 18 digits (no leading zero, no fraction or
        /// exponent: those end the match at the next literal).
        mutating func integer() -> Int? {
            let start = offset
            var value = 0
            while offset < bytes.count, offset - start < 18, bytes[offset] &- UInt8(ascii: "0") < 10 {
                value = value * 10 + Int(bytes[offset] &- UInt8(ascii: "0"))
                offset += 1
            }
            let digits = offset - start
            guard digits > 0, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
            // A 19th digit: left to the general path.
            if offset < bytes.count, bytes[offset] &- UInt8(ascii: "0") < 10 { return nil }
            return value
        }

        /// The bytes up to the next quote, which is left in place, when they are all printable
        /// ASCII without a backslash: a JSON string's content that needs no decoding.
        /// `plainString`, not empty.
        mutating func nonEmptyPlainString() -> UnsafeRawBufferPointer? {
            guard let string = plainString(), string.count > 0 else { return nil }
            return string
        }

        mutating func plainString() -> UnsafeRawBufferPointer? {
            let start = offset
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    return UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                offset += 1
            }
            return nil
        }
    }
}
