/// The fast path of `encode(into:)` for the messages of every round trip: requests without
/// parameters or with a `vc`, a size, a presentation style, a swipe's `completes` or a tab, `hello`, `ready`, callbacks with at most a `vc`, the count
/// of the notifications they posted (`posted`), an `origin` and a folded reply (`reply`), app changes other than `setStack`, replies without a result. Such a frame is composed in a stack buffer and appended in one copy;
/// appending it piece by piece costs an `Array.append(contentsOf:)` per piece, which was
/// most of the encoding time.
///
/// The output is byte for byte what the general path writes (a test compares them).
/// Anything else (restoration state, notification values, errors, `connect`, strings that
/// need escaping or do not fit) returns false and takes the general path.
enum FrameScratch {
    /// Larger than every eligible frame with names and `vc`s of ordinary length.
    static let capacity = 256

    static func encode(_ command: HostCommand, into buffer: inout [UInt8]) -> Bool {
        compose(into: &buffer) { writer in
            switch command {
            case .hello(let protocolVersion, let lifecycle, let foldedReplies):
                guard lifecycle == nil, !foldedReplies else {
                    writer.fail()
                    return
                }
                writer.literal(#"{"op":"hello","protocol":"#)
                writer.int(protocolVersion)
            case .request(let id, let operation):
                writer.literal(#"{"id":"#)
                writer.int(id)
                writer.literal(#","op":""#)
                writer.verbatim(operation.name)
                writer.byte(ASCII.quote)
                switch operation {
                case .push(let viewController, .none), .addChild(let viewController),
                    .removeChild(let viewController):
                    writer.literal(#","vc":"#)
                    writer.plainString(viewController)
                case .present(let viewController, let style, false):
                    writer.literal(#","vc":"#)
                    writer.plainString(viewController)
                    writer.literal(#","style":"#)
                    writer.plainString(style.rawValue)
                case .swipeDismiss(let completes), .swipeBack(let completes):
                    writer.literal(completes ? #","completes":true"# : #","completes":false"#)
                case .selectTab(let index):
                    writer.literal(#","index":"#)
                    writer.int(index)
                case .resize(let width, let height):
                    writer.literal(#","width":"#)
                    writer.int(width)
                    writer.literal(#","height":"#)
                    writer.int(height)
                case .activate, .deactivate, .enterBackground, .enterForeground, .stateRestoration, .disconnect,
                    .terminate, .pop, .memoryWarning, .windowMemoryWarning, .beginBackgroundTask, .endBackgroundTask,
                    .expireBackgroundTask, .tap, .dismiss, .inspect, .popToRoot:
                    break
                case .push, .connect, .notify, .openURL, .continueUserActivity, .didDiscardSceneSessions, .user,
                    .present, .quickAction, .openNotification, .remoteNotification:
                    // The general encoder writes these, and a push with a payload (the fast
                    // path covers the round trips' operations).
                    writer.fail()
                }
            }
            writer.literal("}\n")
        }
    }

    static func encode(_ message: WorkerMessage, into buffer: inout [UInt8]) -> Bool {
        compose(into: &buffer) { writer in
            switch message {
            case .ready(let protocolVersion, let pid, let lifecycle):
                guard lifecycle == .scene else {
                    writer.fail()
                    return
                }
                writer.literal(#"{"type":"ready","protocol":"#)
                writer.int(protocolVersion)
                writer.literal(#","pid":"#)
                writer.int(Int(pid))
            case .callback(let event):
                guard event.restoration == nil, event.notification == nil, event.value == nil else {
                    writer.fail()
                    return
                }
                writer.literal(#"{"type":"callback","name":""#)
                writer.verbatim(event.name.rawValue)
                writer.byte(ASCII.quote)
                if let viewController = event.viewController {
                    writer.literal(#","vc":"#)
                    writer.plainString(viewController)
                }
                if event.posted > 0 {
                    writer.literal(#","posted":"#)
                    writer.int(event.posted)
                }
                if let origin = event.origin {
                    writer.literal(#","origin":""#)
                    writer.verbatim(origin.rawValue)
                    writer.byte(ASCII.quote)
                }
                if let reply = event.reply {
                    writer.literal(#","reply":"#)
                    writer.int(reply)
                }
            case .change(let change):
                writer.literal(#"{"type":"change","op":""#)
                writer.verbatim(change.name)
                writer.byte(ASCII.quote)
                switch change {
                case .push(let viewController):
                    writer.literal(#","vc":"#)
                    writer.plainString(viewController)
                case .pop, .popToRoot, .beginBackgroundTask, .endBackgroundTask, .dismiss:
                    break
                case .setStack, .replaceStack, .setTabs, .present, .requestSceneSessionActivation,
                    .requestSceneSessionDestruction, .selectTab, .popTo,
                    .addChild, .removeChild:
                    writer.fail()
                }
            case .reply(let id, let result):
                guard result == nil else {
                    writer.fail()
                    return
                }
                writer.literal(#"{"type":"reply","id":"#)
                writer.int(id)
            case .failure:
                writer.fail()
            }
            writer.literal("}\n")
        }
    }

    /// Runs `body` on a writer over a stack buffer; appends the result unless it failed.
    private static func compose(into buffer: inout [UInt8], _ body: (inout Writer) -> Void) -> Bool {
        withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 8) { scratch in
            var writer = Writer(base: scratch.baseAddress!, capacity: scratch.count)
            body(&writer)
            guard !writer.failed else { return false }
            buffer.append(contentsOf: UnsafeRawBufferPointer(start: scratch.baseAddress, count: writer.count))
            return true
        }
    }

    /// Writes into the scratch buffer; any write that does not fit (or cannot be written
    /// without escaping) marks the frame failed and makes every later write a no-op.
    struct Writer {
        let base: UnsafeMutableRawPointer
        let capacity: Int
        private(set) var count = 0
        private(set) var failed = false

        init(base: UnsafeMutableRawPointer, capacity: Int) {
            self.base = base
            self.capacity = capacity
        }

        mutating func fail() { failed = true }

        @inline(__always)
        mutating func byte(_ value: UInt8) {
            guard !failed, count < capacity else { return fail() }
            base.storeBytes(of: value, toByteOffset: count, as: UInt8.self)
            count += 1
        }

        @inline(__always)
        mutating func literal(_ text: StaticString) {
            text.withUTF8Buffer { bytes(UnsafeRawBufferPointer($0)) }
        }

        @inline(__always)
        mutating func bytes(_ source: UnsafeRawBufferPointer) {
            guard !failed, source.count <= capacity - count else { return fail() }
            if let address = source.baseAddress {
                (base + count).copyMemory(from: address, byteCount: source.count)
            }
            count += source.count
        }

        /// `text` unquoted and unescaped (for names that never need escaping).
        mutating func verbatim(_ text: String) {
            var text = text
            text.withUTF8 { bytes(UnsafeRawBufferPointer($0)) }
        }

        /// `text` as a JSON string if it needs no escaping, else the frame fails.
        mutating func plainString(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                for byte in utf8 where byte < 0x20 || byte == ASCII.quote || byte == ASCII.backslash {
                    return fail()
                }
                byte(ASCII.quote)
                bytes(UnsafeRawBufferPointer(utf8))
                byte(ASCII.quote)
            }
        }

        /// Decimal, as `JSONWriter.writeInt` writes it.
        mutating func int(_ value: Int) {
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
            withUnsafeMutableBytes(of: &digits) { scratch in
                var magnitude = value.magnitude
                var position = scratch.count
                repeat {
                    position -= 1
                    scratch[position] = ASCII.zero &+ UInt8(truncatingIfNeeded: magnitude % 10)
                    magnitude /= 10
                } while magnitude > 0
                if value < 0 { byte(ASCII.minus) }
                bytes(UnsafeRawBufferPointer(rebasing: scratch[position...]))
            }
        }
    }
}
