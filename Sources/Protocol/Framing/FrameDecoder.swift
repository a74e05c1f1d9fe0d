#if canImport(Glibc)
import Glibc
#endif

/// Splits a byte stream into newline-terminated frames, enforcing a maximum frame size
/// with bounded memory: an oversized frame is reported once and its bytes are discarded
/// up to the next newline, never buffered.
///
/// Rules:
/// - A frame is the bytes before a `\n`. It may be at most `maximumFrameSize - 1` bytes long,
///   so that the frame together with its newline fits in `maximumFrameSize`.
/// - Empty lines (a bare `\n`) are skipped: they carry no message, and skipping them lets a
///   peer use newlines as keep-alives. (A `\r` before the newline is not stripped.)
/// - A frame that grows past the limit is reported once, as `.oversized(length:)` with the
///   length seen so far, at its position in the stream; its remaining bytes up to and
///   including the next newline are dropped as they arrive, never buffered.
/// - Frames are split off eagerly in `append`, so the bytes held are at most one partial
///   frame (bounded by the limit) plus the complete frames not yet taken with `next()`.
public struct FrameDecoder: Sendable {
    /// One result of `next()`.
    public enum Output: Sendable, Hashable {
        /// A complete frame, without its newline.
        case frame([UInt8])
        /// A frame longer than the limit was skipped; `length` is its length so far.
        case oversized(length: Int)
    }

    public let maximumFrameSize: Int

    /// The longest frame content (newline excluded) that is accepted.
    private let maximumContentLength: Int
    /// The start of the current, not yet terminated frame.
    private var partial: [UInt8] = []
    /// True while dropping the rest of an oversized frame (up to its newline).
    private var discarding = false
    /// Outputs ready for `next()`; `head` is the first not yet returned.
    private var ready: [Output] = []
    private var head = 0
    /// Bytes held in `ready`'s frames not yet returned.
    private var readyByteCount = 0

    public init(maximumFrameSize: Int = FrameLimits.defaultMaximumFrameSize) {
        self.maximumFrameSize = maximumFrameSize
        self.maximumContentLength = max(0, maximumFrameSize - 1)
    }

    /// Bytes currently held by the decoder (partial frame plus frames not yet returned).
    /// Public so that a server holding many decoders can account their memory (and tests
    /// can check the bound).
    public var bufferedByteCount: Int { partial.count + readyByteCount }

    /// Feeds bytes read from the stream.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var outputs: [Output] = []
        split(bytes) { piece in
            switch piece {
            case .frame(let frame): outputs.append(.frame(Array(frame)))
            case .oversized(let length): outputs.append(.oversized(length: length))
            }
            return true
        }
        for output in outputs { enqueue(output) }
    }

    /// A frame as `append(_:each:)` hands it out: in place, valid only during the call.
    public enum Piece {
        case frame(UnsafeRawBufferPointer)
        case oversized(length: Int)
    }

    /// `append(bytes)` followed by `next()` until nil, in one pass and without copying: a
    /// frame that lies whole within `bytes` is handed to `body` where it lies, one begun in
    /// an earlier read from the decoder's own buffer. Frames queued by `append(_:)` and not
    /// taken yet come first. `body` returns false to stop, which abandons the stream: the
    /// rest of `bytes` is dropped. Returns false when `body` stopped.
    ///
    /// What a read loop of a long-lived peer wants: `append` and `next` copy every frame into
    /// an array of its own, an allocation per message.
    @discardableResult
    public mutating func append(_ bytes: UnsafeRawBufferPointer, each body: (Piece) -> Bool) -> Bool {
        while let output = next() {
            let proceed: Bool
            switch output {
            case .frame(let frame): proceed = frame.withUnsafeBytes { body(.frame($0)) }
            case .oversized(let length): proceed = body(.oversized(length: length))
            }
            guard proceed else { return false }
        }
        return split(bytes, body)
    }

    /// Splits `bytes` into frames, continuing the partial frame of earlier reads; `body`
    /// gets each in place and returns false to stop (the rest of `bytes` is dropped).
    @discardableResult
    private mutating func split(_ bytes: UnsafeRawBufferPointer, _ body: (Piece) -> Bool) -> Bool {
        let count = bytes.count
        var position = 0
        while position < count {
            let newline = firstNewline(in: bytes, from: position)
            if discarding {
                guard let newline else { return true }
                discarding = false
                position = newline + 1
                continue
            }
            let end = newline ?? count
            let length = partial.count + (end - position)
            if length > maximumContentLength {
                partial = []
                discarding = newline == nil
                guard body(.oversized(length: length)) else { return false }
                guard let newline else { return true }
                position = newline + 1
                continue
            }
            guard let newline else {
                partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[position..<count]))
                return true
            }
            var proceed = true
            if partial.isEmpty {
                if newline > position {
                    proceed = body(.frame(UnsafeRawBufferPointer(rebasing: bytes[position..<newline])))
                }
            } else {
                partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[position..<newline]))
                proceed = partial.withUnsafeBytes { body(.frame($0)) }
                // Not kept for the next split frame: idle scenes by the thousand would each
                // hold one (a frame split across reads is rare: a worker writes small frames
                // whole).
                partial = []
            }
            guard proceed else { return false }
            position = newline + 1
        }
        return true
    }

    /// Feeds bytes read from the stream.
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next complete frame or oversize report, or nil when more bytes are needed.
    public mutating func next() -> Output? {
        guard head < ready.count else { return nil }
        // Swap the output out so the queue does not keep its bytes alive.
        var output = Output.oversized(length: 0)
        swap(&output, &ready[head])
        head += 1
        if case .frame(let frame) = output { readyByteCount -= frame.count }
        if head == ready.count {
            ready.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= ready.count {
            // Compact occasionally so a long-lived decoder does not grow without bound.
            ready.removeSubrange(..<head)
            head = 0
        }
        return output
    }

    /// Call at end of stream: throws `.truncatedFrame` when unterminated bytes remain.
    ///
    /// Unterminated bytes (or the unfinished tail of an oversized frame) are dropped, so
    /// a second call does not throw again. Complete frames stay available from `next()`.
    public mutating func finish() throws(ProtocolError) {
        if discarding {
            discarding = false
            throw ProtocolError(.truncatedFrame, "stream ended inside an oversized frame (no terminating newline)")
        }
        if !partial.isEmpty {
            let length = partial.count
            partial = []
            throw ProtocolError(.truncatedFrame, "stream ended inside a frame: \(length) bytes without a newline")
        }
    }

    private mutating func enqueue(_ output: Output) {
        if case .frame(let frame) = output { readyByteCount += frame.count }
        ready.append(output)
    }

    private func firstNewline(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress else { return nil }
        #if canImport(Glibc)
        // libc's vectorized search: a byte-at-a-time loop took about 5 instructions a byte,
        // on every byte both ends read.
        guard let found = memchr(base + start, Int32(ASCII.newline), bytes.count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
        #else
        var index = start
        while index < bytes.count {
            if bytes[index] == ASCII.newline { return index }
            index += 1
        }
        return nil
        #endif
    }
}
