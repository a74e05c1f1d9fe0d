import Testing

@testable import Protocol

private func frames(_ decoder: inout FrameDecoder) -> [FrameDecoder.Output] {
    var outputs: [FrameDecoder.Output] = []
    while let output = decoder.next() { outputs.append(output) }
    return outputs
}

private func frame(_ text: String) -> FrameDecoder.Output { .frame(Array(text.utf8)) }

@Suite struct FrameDecoderTests {
    static let stream = Array("{\"a\":1}\n\n{\"b\":2}\nxyz\n\n\nlast line é\n".utf8)
    static let expected = [frame("{\"a\":1}"), frame("{\"b\":2}"), frame("xyz"), frame("last line é")]

    @Test func splitsFramesAndSkipsEmptyLines() throws {
        var decoder = FrameDecoder()
        #expect(decoder.next() == nil)
        decoder.append(Self.stream)
        #expect(frames(&decoder) == Self.expected)
        #expect(decoder.next() == nil)
        try decoder.finish()
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func sameFramesForAnyChunking() throws {
        var byteByByte = FrameDecoder()
        var outputs: [FrameDecoder.Output] = []
        for byte in Self.stream {
            byteByByte.append([byte])
            outputs += frames(&byteByByte)
        }
        #expect(outputs == Self.expected)
        try byteByByte.finish()

        // Every split into two and three chunks, frames read only at the end.
        for first in 0...Self.stream.count {
            for second in stride(from: first, through: Self.stream.count, by: 3) {
                var decoder = FrameDecoder()
                decoder.append(Array(Self.stream[..<first]))
                decoder.append(Array(Self.stream[first..<second]))
                decoder.append(Array(Self.stream[second...]))
                #expect(frames(&decoder) == Self.expected)
                try decoder.finish()
            }
        }
    }

    @Test func oversizedFrameReportedOnceThenNextFrameDecoded() throws {
        // Limit 8: frames of up to 7 bytes (plus newline) fit.
        var decoder = FrameDecoder(maximumFrameSize: 8)
        decoder.append(Array("1234567\n12345678\nok\n".utf8))
        #expect(frames(&decoder) == [frame("1234567"), .oversized(length: 8), frame("ok")])

        // An oversized frame arriving in small pieces is reported once, as soon as it exceeds the limit.
        var chunked = FrameDecoder(maximumFrameSize: 8)
        chunked.append(Array("abcd".utf8))
        #expect(chunked.next() == nil)
        chunked.append(Array("efgh".utf8))
        #expect(chunked.next() == .oversized(length: 8))
        for _ in 0..<100 {
            chunked.append(Array("ijklmnop".utf8))
            #expect(chunked.next() == nil)
        }
        chunked.append(Array("qrs\nnext\n".utf8))
        #expect(frames(&chunked) == [frame("next")])
        try chunked.finish()

        // Byte by byte gives the same reports.
        var bytewise = FrameDecoder(maximumFrameSize: 8)
        var outputs: [FrameDecoder.Output] = []
        for byte in Array("1234567\n123456789012\nok\n".utf8) {
            bytewise.append([byte])
            outputs += frames(&bytewise)
        }
        #expect(outputs == [frame("1234567"), .oversized(length: 8), frame("ok")])
    }

    @Test func memoryStaysBoundedWithoutNewlines() throws {
        var decoder = FrameDecoder(maximumFrameSize: 1024)
        let chunk = [UInt8](repeating: 0x41, count: 64 * 1024)
        var reports: [FrameDecoder.Output] = []
        for _ in 0..<160 {  // 10 MiB
            decoder.append(chunk)
            #expect(decoder.bufferedByteCount <= 1024)
            reports += frames(&decoder)
        }
        #expect(reports == [.oversized(length: 64 * 1024)])
        #expect(decoder.bufferedByteCount == 0)

        // The same in small chunks that never hit the limit individually.
        var small = FrameDecoder(maximumFrameSize: 1024)
        let piece = [UInt8](repeating: 0x42, count: 100)
        for _ in 0..<1_000 {
            small.append(piece)
            #expect(small.bufferedByteCount <= 1024)
        }
        #expect(frames(&small) == [.oversized(length: 1100)])
        #expect(throws: ProtocolError.self) { try small.finish() }
        // After the end of the discarded frame, decoding resumes.
        small.append(Array("\n{}\n".utf8))
        #expect(frames(&small) == [frame("{}")])
        // Not calling next() between appends still keeps the partial frame bounded.
        var lazy = FrameDecoder(maximumFrameSize: 1024)
        for _ in 0..<160 { lazy.append(chunk) }
        #expect(lazy.bufferedByteCount == 0)
        #expect(frames(&lazy) == [.oversized(length: 64 * 1024)])
    }

    @Test func finishThrowsOnPartialFrame() throws {
        var decoder = FrameDecoder()
        decoder.append(Array("{\"a\":1}\n{\"b\"".utf8))
        do {
            try decoder.finish()
            Issue.record("expected truncatedFrame")
        } catch {
            #expect(error.code == .truncatedFrame)
        }
        #expect(frames(&decoder) == [frame("{\"a\":1}")])
        try decoder.finish()  // The partial frame was dropped.

        var oversized = FrameDecoder(maximumFrameSize: 4)
        oversized.append(Array("toolong".utf8))
        #expect(frames(&oversized) == [.oversized(length: 7)])
        #expect(
            throws: ProtocolError(.truncatedFrame, "stream ended inside an oversized frame (no terminating newline)")
        ) {
            try oversized.finish()
        }

        var clean = FrameDecoder()
        try clean.finish()
        clean.append(Array("\n\n".utf8))
        try clean.finish()
        #expect(clean.next() == nil)
    }

    @Test func manySmallFramesInOneAppend() throws {
        var stream: [UInt8] = []
        for index in 0..<50_000 {
            HostCommand.request(id: index, .pop).encode(into: &stream)
        }
        var decoder = FrameDecoder()
        decoder.append(stream)
        var count = 0
        while let output = decoder.next() {
            guard case .frame(let bytes) = output else {
                Issue.record("unexpected \(output)")
                break
            }
            #expect(try HostCommand(frame: bytes) == .request(id: count, .pop))
            count += 1
            if count == 25_000 { #expect(decoder.bufferedByteCount < stream.count / 2 + 100) }
        }
        #expect(count == 50_000)
        #expect(decoder.bufferedByteCount == 0)
        try decoder.finish()
    }

    @Test func tinyLimits() {
        var decoder = FrameDecoder(maximumFrameSize: 1)
        decoder.append(Array("a\n\nbc\n".utf8))
        #expect(frames(&decoder) == [.oversized(length: 1), .oversized(length: 2)])
        var zero = FrameDecoder(maximumFrameSize: 0)
        zero.append(Array("a\n".utf8))
        #expect(frames(&zero) == [.oversized(length: 1)])
    }

    @Test func encodedMessagesThroughDecoder() throws {
        var stream: [UInt8] = []
        for message in allMessages { message.encode(into: &stream) }
        var decoder = FrameDecoder()
        var decoded: [WorkerMessage] = []
        var offset = 0
        var chunkSize = 1
        while offset < stream.count {
            let end = min(stream.count, offset + chunkSize)
            decoder.append(Array(stream[offset..<end]))
            offset = end
            chunkSize = chunkSize % 37 + 1
            while case .frame(let bytes) = decoder.next() {
                decoded.append(try WorkerMessage(frame: bytes))
            }
        }
        #expect(decoded == allMessages)
        try decoder.finish()
    }

    /// `append(_:each:)` hands out exactly what `append` and `next` give, for any chunking,
    /// with oversized frames, empty lines and frames split across reads; frames queued by
    /// `append(_:)` come first; and stopping drops the rest of that read.
    @Test func appendEachGivesWhatAppendAndNextGive() {
        let stream = Array("ab\n\ncdefghij\nk\nlmnopqrstuvwxyz0123\n\n45\nunterminated".utf8)
        for limit in [4, 8, 64] {
            for chunk in 1...12 {
                var reference = FrameDecoder(maximumFrameSize: limit)
                var inPlace = FrameDecoder(maximumFrameSize: limit)
                var expected: [FrameDecoder.Output] = []
                var got: [FrameDecoder.Output] = []
                var offset = 0
                while offset < stream.count {
                    let piece = Array(stream[offset..<min(stream.count, offset + chunk)])
                    offset += piece.count
                    reference.append(piece)
                    expected += frames(&reference)
                    _ = piece.withUnsafeBytes { bytes in
                        inPlace.append(bytes) { piece in
                            switch piece {
                            case .frame(let frame): got.append(.frame(Array(frame)))
                            case .oversized(let length): got.append(.oversized(length: length))
                            }
                            return true
                        }
                    }
                }
                #expect(got == expected, "limit \(limit), chunk \(chunk)")
                #expect(inPlace.bufferedByteCount == reference.bufferedByteCount)
            }
        }

        var decoder = FrameDecoder()
        decoder.append(Array("queued\n".utf8))
        var seen: [String] = []
        let finished = Array("one\ntwo\nthree\n".utf8).withUnsafeBytes { bytes in
            decoder.append(bytes) { piece in
                guard case .frame(let frame) = piece else { return false }
                seen.append(String(decoding: frame, as: UTF8.self))
                return seen.count < 2
            }
        }
        #expect(!finished)
        #expect(seen == ["queued", "one"])
    }
}
